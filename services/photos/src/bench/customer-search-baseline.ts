// The floor `customer-search` is measured against: a bare Express 5 app that runs the same search statement as photos
// (customerListSql: same table, same trigram index, same ranking, same window count) through the same driver and pool,
// and answers the rows as JSON. No authentication, validation, ORM hydration or presenter.
// Run by the benchmark in its own process: PORT, DATABASE_URL, TEAM_ID.
import express from 'express';
import { REST_BASE } from '../api-paths.js';
import { CUSTOMERS_PER_PAGE, customerListSql, customerSearchPlan } from '../modules/customers/index.js';
import { openDatabase } from '../service.js';

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
app.get(`${REST_BASE}/customers`, async (req, res) => {
  const plan = customerSearchPlan(typeof req.query.q === 'string' ? req.query.q : undefined);
  const { sql, params } = customerListSql({ teamId, plan, page: 1, perPage: CUSTOMERS_PER_PAGE });
  res.json({ data: await connection.execute(sql, params) });
});
app.listen(Number(required('PORT')), '127.0.0.1');
