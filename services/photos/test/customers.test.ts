// Customers over real HTTP against the real database (README Decisions "Customer fields", "Customer search", "Projects
// and customers"): create with contacts, validation, search (accents, case, partial words, phone digits), the trigram
// index, scopes, team isolation, project links, webhooks and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookDelivery } from '@tributary/kit';
import { CUSTOMER_SEARCH_INDEX, Customer } from '../src/modules/customers/index.js';
import { Project } from '../src/modules/projects/index.js';
import { seedDemoData } from '../src/seed.js';
import { DEMO_LINKED_PROJECT } from '../src/seed-customers.js';
import { addToken, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';

let h: PhotosHarness;
let url: string;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
}

const JOSE = {
  name: 'José Álvarez',
  company: 'Constructora Núñez',
  email: 'jose@nunez.example',
  phone: '+1 (555) 012-3456',
  address: { street: '12 Rua Augusta', city: 'São Paulo', postcode: '01305-000', country: 'BR' },
  notes: 'Prefers calls after 4pm.',
  contacts: [
    { name: 'Marta Site', role: 'Site manager', email: 'marta@nunez.example', phone: '+55 11 5555 0101' },
    { name: 'Accounts', email: 'ap@nunez.example' },
  ],
};

describe('POST /api/v1/customers and GET /api/v1/customers/{customer}', () => {
  it('creates a customer with contacts in order; 201 with Location; the read answers the same resource', async () => {
    const team = await createTeam(h, 'Customers Create');
    const created = await call('POST', '/customers', team.token, JOSE);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      name: 'José Álvarez',
      company: 'Constructora Núñez',
      email: 'jose@nunez.example',
      phone: '+1 (555) 012-3456',
      address: { street: '12 Rua Augusta', city: 'São Paulo', postcode: '01305-000', country: 'BR' },
      notes: 'Prefers calls after 4pm.',
      created_at: expect.any(String),
      contacts: [
        { id: expect.any(Number), name: 'Marta Site', role: 'Site manager', email: 'marta@nunez.example', phone: '+55 11 5555 0101' },
        { id: expect.any(Number), name: 'Accounts', role: null, email: 'ap@nunez.example', phone: null },
      ],
    });
    expect(created.headers.get('location')).toBe(`/api/v1/customers/${created.body.data.id}`);
    expect(await call('GET', `/customers/${created.body.data.id}`, team.token)).toMatchObject({ status: 200, body: { data: created.body.data } });

    const minimal = await call('POST', '/customers', team.token, { name: 'Walk-in', email: '', phone: null, address: { city: '' } });
    expect(minimal.body.data).toMatchObject({ name: 'Walk-in', company: null, email: null, phone: null, address: { street: null, city: null, postcode: null, country: null }, notes: '', contacts: [] });
  });

  it('another team\'s customer, an unknown id or one that is not digits: 404', async () => {
    const team = await createTeam(h, 'Customers Own');
    const other = await createTeam(h, 'Customers Other');
    const created = (await call('POST', '/customers', team.token, { name: 'Private' })).body.data;
    for (const id of [created.id, 'abc', '1e3', '99999999999', String(created.id + 100_000)]) {
      expect((await call('GET', `/customers/${id}`, other.token)).status).toBe(404);
    }
  });

  it('validates e-mail addresses and phone numbers (also the contacts\'): 422 naming every field, nothing stored', async () => {
    const team = await createTeam(h, 'Customers Invalid');
    const cases: Array<[unknown, string[]]> = [
      [{}, ['name']],
      [{ name: '  ' }, ['name']],
      [{ name: 'x'.repeat(192) }, ['name']],
      [{ name: 'A', email: 'not-an-email' }, ['email']],
      [{ name: 'A', email: 'a@b' }, ['email']],
      [{ name: 'A', phone: '12345' }, ['phone']],
      [{ name: 'A', phone: '+1 555 CALL NOW' }, ['phone']],
      [{ name: 'A', phone: '1234567890123456' }, ['phone']],
      [{ name: 'A', phone: '++64 9 123 4567' }, ['phone']],
      [{ name: 'A', phone: '(09) 123-4567-' }, ['phone']],
      [{ name: 'A', address: { city: 'x'.repeat(192) } }, ['address.city']],
      [{ name: 'A', address: { town: 'x' } }, ['address.town']],
      [{ name: 'A', contacts: [{ name: 'B', email: 'bad' }, { name: '', phone: 'x' }] }, ['contacts.0.email', 'contacts.1.name', 'contacts.1.phone']],
      [{ name: 'A', contacts: Array.from({ length: 21 }, (_v, i) => ({ name: `C${i}` })) }, ['contacts']],
      [{ name: 'A', vip: true }, ['vip']],
      [{ name: 'A\u0000' }, ['name']],
      ['text', ['body']],
    ];
    for (const [payload, fields] of cases) {
      const res = await call('POST', '/customers', team.token, payload);
      expect({ payload, fields: Object.keys(res.body.error?.fields ?? {}).sort(), status: res.status }).toEqual({ payload, fields, status: 422 });
    }
    expect((await call('POST', '/customers', team.token, { name: 'A', phone: 'abc' })).body.error.fields.phone[0]).toMatch(/^Must be a phone number/);
    expect(await h.orm.em.fork().count(Customer, { team: team.team.id })).toBe(0);
    for (const phone of ['+64 9 123 4567', '(09) 123-4567', '09.123.4567', '+1 (555) 012-3456', '0211234567', '+44 20/7946 0958']) {
      expect({ phone, status: (await call('POST', '/customers', team.token, { name: 'Ok', phone })).status }).toEqual({ phone, status: 201 });
    }
  });
});

describe('GET /api/v1/customers?q=', () => {
  let token: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const team = await createTeam(h, 'Customers Search');
    const other = await createTeam(h, 'Customers Search Other');
    token = team.token;
    const customers = {
      jose: JOSE,
      zoe: { name: 'Zoë Smith', company: 'Smithfield Roofing', email: 'zoe@smithfield.example', phone: '+41 44 668 18 00', address: { city: 'Zürich' } },
      bob: { name: "Bob O'Brien", company: 'Harbour Cafés Ltd', email: 'bob@harbour.example', phone: '(09) 555-0142', address: { city: 'Auckland' } },
      percent: { name: 'Percent 100% Builders', company: null, email: 'ops@percent.example', phone: null, address: { city: 'Wellington' } },
      smith: { name: 'Smith', company: null, email: null, phone: null },
    };
    for (const [key, body] of Object.entries(customers)) ids[key] = (await call('POST', '/customers', token, body)).body.data.id;
    await call('POST', '/customers', other.token, { name: 'José Other Team', phone: '+1 (555) 012-3456', address: { city: 'São Paulo' } });
  });

  const search = async (q: string) => {
    const res = await call('GET', `/customers?q=${encodeURIComponent(q)}`, token);
    expect(res.status).toBe(200);
    return res.body.data.map((customer: Json) => customer.id);
  };

  it('lists the team\'s customers by name without q, without contacts, with meta', async () => {
    const res = await call('GET', '/customers', token);
    expect(res.body.data.map((customer: Json) => customer.name)).toEqual(["Bob O'Brien", 'José Álvarez', 'Percent 100% Builders', 'Smith', 'Zoë Smith']);
    expect(res.body.meta).toEqual({ current_page: 1, per_page: 25, total: 5, last_page: 1 });
    expect(Object.keys(res.body.data[0])).toEqual(['id', 'name', 'company', 'email', 'phone', 'address', 'notes', 'created_at']);
  });

  it('ignores case and accents in both directions', async () => {
    expect(await search('jose')).toEqual([ids.jose]);
    expect(await search('JOSÉ')).toEqual([ids.jose]);
    expect(await search('alvarez')).toEqual([ids.jose]);
    expect(await search('núñez')).toEqual([ids.jose]);
    expect(await search('NUNEZ')).toEqual([ids.jose]);
    expect(await search('zoe')).toEqual([ids.zoe]);
    expect(await search('zurich')).toEqual([ids.zoe]);
    expect(await search('ZÜRICH')).toEqual([ids.zoe]);
    expect(await search('cafes')).toEqual([ids.bob]);
  });

  it('matches parts of words in name, company, e-mail and city; every word must occur', async () => {
    expect(await search('varez')).toEqual([ids.jose]);
    expect(await search('construct')).toEqual([ids.jose]);
    expect(await search('smithfield.example')).toEqual([ids.zoe]);
    expect(await search('sao paulo')).toEqual([ids.jose]);
    expect(await search('paulo jose')).toEqual([ids.jose]);
    expect(await search('auck')).toEqual([ids.bob]);
    expect(await search("o'brien")).toEqual([ids.bob]);
    expect(await search('paulo zurich')).toEqual([]);
    expect(await search('nobody-here')).toEqual([]);
  });

  it('finds a phone number by part of its digits, whatever the punctuation', async () => {
    expect((await search('555 01')).sort()).toEqual([ids.jose, ids.bob].sort());
    expect(await search('555 012')).toEqual([ids.jose]);
    expect(await search('(555) 012-3456')).toEqual([ids.jose]);
    expect(await search('+15550123456')).toEqual([ids.jose]);
    expect(await search('012-3456')).toEqual([ids.jose]);
    expect(await search('5550142')).toEqual([ids.bob]);
    expect(await search('668 18')).toEqual([ids.zoe]);
    expect(await search('alvarez 0123')).toEqual([ids.jose]);
  });

  it('ranks the closest match first, then by name', async () => {
    expect(await search('smith')).toEqual([ids.smith, ids.zoe]);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(await search('100%')).toEqual([ids.percent]);
    expect(await search('%')).toEqual([ids.percent]);
    expect(await search('_')).toEqual([]);
    expect(await search('\\')).toEqual([]);
  });

  // Spec: customers are "searchable by name, company, email, phone and city"; a search for a character finds the
  // customers holding it. unaccent() folds full-width ％ ＿ ＼ to % _ \, so they are escaped after normalising.
  it('takes the full-width ％, ＿ and ＼ literally too (they normalise to %, _ and \\): never a wildcard', async () => {
    const team = await createTeam(h, 'Customers Full-width');
    const people = {
      zeta: { name: 'Zeta 50% Works' },
      alpha: { name: 'Alpha Services', company: 'Full-width ５０％ Ltd' },
      snake: { name: 'Snake＿case Co' },
      slash: { name: 'Back\\slash Supplies' },
      plain: { name: 'Plain Customer' },
    };
    const found: Record<string, number> = {};
    for (const [key, body] of Object.entries(people)) found[key] = (await call('POST', '/customers', team.token, body)).body.data.id;
    const ids = async (q: string) => (await call('GET', `/customers?q=${encodeURIComponent(q)}`, team.token)).body.data.map((customer: Json) => customer.id);
    // Ranked by where the character first occurs: in Zeta's name before Alpha's company.
    expect(await ids('％')).toEqual([found.zeta, found.alpha]);
    expect(await ids('%')).toEqual([found.zeta, found.alpha]);
    expect(await ids('＿')).toEqual([found.snake]);
    expect(await ids('_')).toEqual([found.snake]);
    expect(await ids('＼')).toEqual([found.slash]);
    expect(await ids('５０％ ltd')).toEqual([found.alpha]);
    expect(await ids('％％')).toEqual([]);
  });

  it('refuses a bad page or an over-long q with 422', async () => {
    for (const query of ['page=0', 'page=abc', `q=${'x'.repeat(192)}`]) expect((await call('GET', `/customers?${query}`, token)).status).toBe(422);
    expect((await call('GET', '/customers?q=smith&page=2', token)).body.meta).toEqual({ current_page: 2, per_page: 25, total: 2, last_page: 1 });
  });

  it('the search condition can use the GIN trigram index', async () => {
    const explained = await h.orm.em.fork().getConnection().transactional(async (tx) => {
      await h.orm.em.getConnection().execute('set local enable_seqscan = off', [], 'run', tx);
      return h.orm.em.getConnection().execute<Array<{ 'QUERY PLAN': string }>>(
        `explain select id from customers c where c."search_document" like photos_search.contains_pattern('alvarez')`,
        [],
        'all',
        tx,
      );
    });
    expect(explained.map((row) => row['QUERY PLAN']).join('\n')).toContain(CUSTOMER_SEARCH_INDEX);
  });
});

describe('scopes', () => {
  it('customers:read reads, customers:write creates; each missing ability is a 403 naming it; a device token reaches neither', async () => {
    const team = await createTeam(h, 'Customers Scopes');
    const customer = (await call('POST', '/customers', team.token, { name: 'Scoped' })).body.data;
    const reader = await addToken(h, team, ['customers:read']);
    const writer = await addToken(h, team, ['customers:write']);
    const device = await addToken(h, team, ['capture']);
    const unrelated = await addToken(h, team, ['projects:read', 'projects:write', 'pages:read']);
    expect((await call('GET', '/customers?q=scoped', reader)).status).toBe(200);
    expect((await call('GET', `/customers/${customer.id}`, reader)).status).toBe(200);
    expect((await call('POST', '/customers', writer, { name: 'By token' })).status).toBe(201);
    for (const token of [reader, device, unrelated]) {
      const res = await call('POST', '/customers', token, { name: 'No' });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: expect.objectContaining({ missing_scope: 'customers:write' }) });
    }
    for (const token of [writer, device, unrelated]) {
      for (const path of ['/customers', `/customers/${customer.id}`]) {
        const res = await call('GET', path, token);
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: expect.objectContaining({ missing_scope: 'customers:read' }) });
      }
    }
  });
});

describe('projects and customers', () => {
  it('a project may link a customer of its team: customer {id, name} in the project resource, null when none', async () => {
    const team = await createTeam(h, 'Customers Projects');
    const other = await createTeam(h, 'Customers Projects Other');
    const customer = (await call('POST', '/customers', team.token, { name: 'Harbour Trust' })).body.data;
    const foreign = (await call('POST', '/customers', other.token, { name: 'Not Yours' })).body.data;
    const linked = await call('POST', '/projects', team.token, { name: 'Wharf', customer_id: customer.id });
    expect(linked.status).toBe(201);
    expect(linked.body.data.customer).toEqual({ id: customer.id, name: 'Harbour Trust' });
    expect((await call('GET', `/projects/${linked.body.data.id}`, team.token)).body.data.customer).toEqual({ id: customer.id, name: 'Harbour Trust' });
    const listed = (await call('GET', '/projects', team.token)).body.data;
    expect(listed.map((project: Json) => [project.name, project.customer])).toEqual([
      ['Wharf', { id: customer.id, name: 'Harbour Trust' }],
      [team.project.name, null],
    ]);
    const bootstrapped = (await call('GET', '/bootstrap', team.token)).body.data.projects;
    expect(bootstrapped[0].customer).toEqual({ id: customer.id, name: 'Harbour Trust' });

    for (const customerId of [foreign.id, customer.id + 100_000]) {
      const refused = await call('POST', '/projects', team.token, { name: 'Other', customer_id: customerId });
      expect({ status: refused.status, fields: refused.body.error.fields }).toEqual({ status: 422, fields: { customer_id: ['No customer with this id in your team.'] } });
    }
    expect((await call('POST', '/projects', team.token, { name: 'Other', customer_id: '1' })).status).toBe(422);
    // A projects:write token links a customer without any customers scope (it names an id it knows; it reads no customer).
    const projectsOnly = await addToken(h, team, ['projects:write']);
    expect((await call('POST', '/projects', projectsOnly, { name: 'Token site', customer_id: customer.id })).status).toBe(201);
  });

  it('an Idempotency-Key replay answers the linked customer; the same key with another customer is refused', async () => {
    const team = await createTeam(h, 'Customers Idempotent');
    const customer = (await call('POST', '/customers', team.token, { name: 'Replay Ltd' })).body.data;
    const create = (body: object) =>
      fetch(`${url}/api/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${team.token}`, 'content-type': 'application/json', 'idempotency-key': 'link-1' }, body: JSON.stringify(body) });
    const first = (await (await create({ name: 'Linked', customer_id: customer.id })).json()) as Json;
    const replay = await create({ name: 'Linked', customer_id: customer.id });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as Json).data).toEqual(first.data);
    expect((await create({ name: 'Linked' })).status).toBe(422);
  });
});

describe('webhooks and GraphQL', () => {
  it('customer.created carries the REST resource byte for byte', async () => {
    const team = await createTeam(h, 'Customers Hooks', {}, { role: 'owner' });
    expect((await call('POST', '/webhook-endpoints', team.token, { url: 'https://93.184.216.34/hooks/customers', events: ['customer.created'] })).status).toBe(201);
    const res = await fetch(`${url}/api/v1/customers`, { method: 'POST', headers: { authorization: `Bearer ${team.token}`, 'content-type': 'application/json' }, body: JSON.stringify(JOSE) });
    const text = await res.text();
    const deliveries = await h.orm.em.fork().find(WebhookDelivery, { ownerId: String(team.team.id) });
    expect(deliveries.map((delivery) => delivery.eventName)).toEqual(['customer.created']);
    expect(deliveries[0]!.body.endsWith(`"data":${JSON.stringify((JSON.parse(text) as Json).data)}}`)).toBe(true);
  });

  it('photosCustomers(q), photosCustomer, createPhotosCustomer and PhotosProject.customer follow the REST rules', async () => {
    const team = await createTeam(h, 'Customers GraphQL');
    const auth = { authorization: `Bearer ${team.token}` };
    const created = await gql(url, `mutation($input: CreatePhotosCustomerInput!) { createPhotosCustomer(input: $input) { id name phone address { city } contacts { name role } } }`, auth, { input: JOSE });
    const customer = created.body.data?.createPhotosCustomer as Json;
    expect(customer).toMatchObject({ name: 'José Álvarez', address: { city: 'São Paulo' }, contacts: [{ name: 'Marta Site', role: 'Site manager' }, { name: 'Accounts', role: null }] });

    const found = await gql(url, `{ photosCustomers(q: "555 01") { total items { id contacts { name } } } }`, auth);
    expect(found.body.data?.photosCustomers).toEqual({ total: 1, items: [{ id: customer.id, contacts: [{ name: 'Marta Site' }, { name: 'Accounts' }] }] });
    const one = await gql(url, `query($id: ID!) { photosCustomer(id: $id) { name } }`, auth, { id: customer.id });
    expect(one.body.data?.photosCustomer).toEqual({ name: 'José Álvarez' });

    const project = await gql(url, `mutation($input: CreatePhotosProjectInput!) { createPhotosProject(input: $input) { id customer { id name } } }`, auth, {
      input: { name: 'Linked by GraphQL', customerId: customer.id },
    });
    expect(project.body.data?.createPhotosProject).toMatchObject({ customer: { id: customer.id, name: 'José Álvarez' } });

    const invalid = await gql(url, `mutation { createPhotosCustomer(input: { name: "X", phone: "12" }) { id } }`, auth);
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const projectsOnly = await addToken(h, team, ['projects:read']);
    const refused = await gql(url, `{ photosCustomers { total } }`, { authorization: `Bearer ${projectsOnly}` });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'customers:read' });
    const writeRefused = await gql(url, `mutation { createPhotosCustomer(input: { name: "X" }) { id } }`, { authorization: `Bearer ${projectsOnly}` });
    expect(writeRefused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'customers:write' });
  });
});

describe('demo data', () => {
  it('seeds three customers once, Harbour View Apartments linked to the first; part of a phone number finds one', async () => {
    const first = await seedDemoData(h.orm.em.fork());
    await seedDemoData(h.orm.em.fork());
    const em = h.orm.em.fork();
    expect(await em.count(Customer, { team: first.team_id })).toBe(3);
    const harbour = await em.findOneOrFail(Project, { team: first.team_id, name: DEMO_LINKED_PROJECT }, { populate: ['customer'] });
    expect(harbour.customer?.name).toBe('Harbour View Body Corporate');
    const found = await call('GET', '/customers?q=012%2034', first.token);
    expect(found.body.data.map((customer: Json) => customer.name)).toEqual(['José Núñez']);
    const project = await call('GET', `/projects/${harbour.id}`, first.token);
    expect(project.body.data.customer).toEqual({ id: harbour.customer!.id, name: 'Harbour View Body Corporate' });
  });
});
