// The floor `project-create` is measured against: a bare Express 5 app that does what any project create must do at the
// least: parse the JSON body, INSERT one row of projects (the same table, constraints and indexes as photos', from
// photos' migrations) and answer 201 with the project as the real create shows it. No authentication, scope check,
// validation, team lookup, idempotency, ORM entity, transaction, webhook event or logging: everything photos does
// beyond this is what the ratio prices. SQL through the same driver and pool as photos (MikroORM's connection, pg
// under it: photos has no pg dependency of its own, and the customer-search and nearby baselines do the same).
// Run by the benchmark in its own process: PORT, DATABASE_URL, TEAM_ID.
import express from 'express';
import { REST_BASE } from '../api-paths.js';
import { DEFAULT_MATCH_RADIUS_M } from '../modules/teams/index.js';
import { openDatabase } from '../service.js';

const INSERT = `insert into projects (team_id, name, status, address, latitude, longitude, radius_m, created_at, updated_at, last_activity_at)
  values (?, ?, 'active', ?, ?, ?, ?, ?, ?, ?) returning id`;

interface Body {
  name: string;
  address?: string | null;
  coordinates?: { lat: number; lng: number } | null;
  radius_m?: number;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const teamId = Number(required('TEAM_ID'));
const orm = await openDatabase(required('DATABASE_URL'));
const connection = orm.em.getConnection();
const app = express();
app.use(express.json());
app.get('/readyz', (_req, res) => {
  res.send('ok');
});
app.post(`${REST_BASE}/projects`, async (req, res) => {
  const body = req.body as Body;
  const now = new Date();
  // The seeded team keeps the default radius; the real create reads it from the team row.
  const radiusM = body.radius_m ?? DEFAULT_MATCH_RADIUS_M;
  const [row] = await connection.execute<Array<{ id: number }>>(INSERT, [teamId, body.name, body.address ?? null, body.coordinates?.lat ?? null, body.coordinates?.lng ?? null, radiusM, now, now, now]);
  const id = row!.id;
  res
    .status(201)
    .location(`${REST_BASE}/projects/${id}`)
    .json({
      data: {
        id,
        name: body.name,
        status: 'active',
        address: body.address ?? null,
        coordinates: body.coordinates ? { lat: body.coordinates.lat, lng: body.coordinates.lng, radius_m: radiusM } : null,
        customer: null,
        created_at: now.toISOString(),
        last_activity_at: now.toISOString(),
      },
    });
});
const server = app.listen(Number(required('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => {
    void orm.close().then(() => process.exit(0));
  });
  server.closeIdleConnections();
});
