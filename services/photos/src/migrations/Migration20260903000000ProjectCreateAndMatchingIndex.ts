import { Migration } from '@mikro-orm/migrations';

/**
 * Projects created through the API: the Idempotency-Key of a create (unique per team) and its body's fingerprint; and
 * GPS matching's candidate index (team, latitude, longitude) over the projects that can be matched at all.
 */
export class Migration20260903000000ProjectCreateAndMatchingIndex extends Migration {
  override up(): void {
    this.addSql(`alter table "projects" add "idempotency_key" varchar(255) null, add "idempotency_fingerprint" varchar(64) null;`);
    this.addSql(`create index "projects_matchable_team_id_latitude_longitude_index" on "projects" ("team_id", "latitude", "longitude") where "status" = 'active' and "latitude" is not null and "longitude" is not null;`);
    this.addSql(`alter table "projects" add constraint "projects_team_id_idempotency_key_unique" unique ("team_id", "idempotency_key");`);
  }

  override down(): void {
    this.addSql(`alter table "projects" drop constraint "projects_team_id_idempotency_key_unique";`);
    this.addSql(`drop index "projects_matchable_team_id_latitude_longitude_index";`);
    this.addSql(`alter table "projects" drop column "idempotency_key", drop column "idempotency_fingerprint";`);
  }
}
