// Demo customers for local development (called by seed.ts, idempotent by name within the demo team): a few to search
// for (accents, a phone with punctuation), the first linked to Harbour View Apartments.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer, CustomerContact } from './modules/customers/index.js';
import { Project } from './modules/projects/index.js';
import type { Team } from './modules/teams/index.js';

export const DEMO_LINKED_PROJECT = 'Harbour View Apartments';

const DEMO_CUSTOMERS = [
  {
    name: 'Harbour View Body Corporate',
    company: 'Quay Property Management',
    email: 'committee@harbourview.example',
    phone: '+64 9 555 0123',
    street: '1 Quay Street',
    city: 'Auckland',
    postcode: '1010',
    country: 'NZ',
    contacts: [{ name: 'Aroha Ngata', role: 'Chair', email: 'aroha@harbourview.example', phone: '+64 21 555 0188' }],
  },
  {
    name: 'José Núñez',
    company: 'Núñez Renovaciones',
    email: 'jose@nunez.example',
    phone: '+1 (555) 012-3456',
    street: null,
    city: 'São Paulo',
    postcode: null,
    country: 'BR',
    contacts: [],
  },
  { name: 'Riverside School Board', company: null, email: 'office@riverside.example', phone: '(07) 555-0199', street: '20 River Road', city: 'Hamilton', postcode: '3204', country: 'NZ', contacts: [] },
] as const;

export async function seedDemoCustomers(tx: EntityManager, team: Team): Promise<void> {
  for (const { contacts, ...demo } of DEMO_CUSTOMERS) {
    if (await tx.findOne(Customer, { team, name: demo.name })) continue;
    const customer = tx.create(Customer, { team, ...demo });
    contacts.forEach((contact, position) => tx.create(CustomerContact, { customer, position, ...contact }));
  }
  await tx.flush();
  const project = await tx.findOne(Project, { team, name: DEMO_LINKED_PROJECT });
  if (project && !project.customer) project.customer = await tx.findOneOrFail(Customer, { team, name: DEMO_CUSTOMERS[0].name });
}
