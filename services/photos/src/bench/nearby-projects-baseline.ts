// The floor `nearby-projects` is measured against: a bare Express 5 app that does what any nearby lookup must do at the
// least: read lat, lng and accuracy_m, run the same indexed candidate query (same table, same partial index, through
// the same driver and pool as photos) and answer the rows as JSON. No authentication, team settings, validation,
// ORM hydration, geometry or decision: everything photos does beyond this is what the ratio prices.
// Run by the benchmark in its own process: PORT, DATABASE_URL, TEAM_ID.
import express from 'express';
import { REST_BASE } from '../api-paths.js';
import { boundingBox, MAX_PROJECT_RADIUS_M } from '../modules/projects/index.js';
import { openDatabase } from '../service.js';

const CANDIDATES = `select id, name, latitude, longitude, radius_m from projects
  where team_id = ? and status = 'active' and latitude >= ? and latitude <= ? and latitude is not null
    and longitude >= ? and longitude <= ? and longitude is not null order by id`;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const teamId = Number(required('TEAM_ID'));
const orm = await openDatabase(required('DATABASE_URL'));
const connection = orm.em.getConnection();
const app = express();
app.get('/readyz', (_req, res) => {
  res.send('ok');
});
app.get(`${REST_BASE}/projects/nearby`, async (req, res) => {
  const fix = { lat: Number(req.query.lat), lng: Number(req.query.lng) };
  const box = boundingBox(fix, MAX_PROJECT_RADIUS_M + Number(req.query.accuracy_m));
  const rows = await connection.execute(CANDIDATES, [teamId, box.minLat, box.maxLat, box.minLng, box.maxLng]);
  res.json({ data: rows });
});
app.listen(Number(required('PORT')), '127.0.0.1');
