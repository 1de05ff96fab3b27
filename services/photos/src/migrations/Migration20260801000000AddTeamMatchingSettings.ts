import { Migration } from '@mikro-orm/migrations';

/** The team settings GPS matching reads: the default radius of a new project and the accuracy threshold. */
export class Migration20260801000000AddTeamMatchingSettings extends Migration {
  override up(): void {
    this.addSql(`alter table "teams" add column "default_match_radius_m" double precision not null default 150, add column "accuracy_threshold_m" double precision not null default 50;`);
  }

  override down(): void {
    this.addSql(`alter table "teams" drop column "default_match_radius_m", drop column "accuracy_threshold_m";`);
  }
}
