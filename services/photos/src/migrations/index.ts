import type { MigrationObject } from '@mikro-orm/core';
import { kitMigrations } from '@tributary/kit';
import { Migration20260701000000CreateTeamsAndProjects } from './Migration20260701000000CreateTeamsAndProjects.js';
import { Migration20260801000000AddTeamMatchingSettings } from './Migration20260801000000AddTeamMatchingSettings.js';
import { Migration20260902000000AddSignInAndDevices } from './Migration20260902000000AddSignInAndDevices.js';
import { Migration20260903000000ProjectCreateAndMatchingIndex } from './Migration20260903000000ProjectCreateAndMatchingIndex.js';
import { Migration20260904000000CreatePhotosAndPhotoGroups } from './Migration20260904000000CreatePhotosAndPhotoGroups.js';
import { Migration20260905000000CreateWebhookEndpoints } from './Migration20260905000000CreateWebhookEndpoints.js';
import { Migration20261001000000CreateChecklistsAndTasks } from './Migration20261001000000CreateChecklistsAndTasks.js';
import { Migration20261003000000CreateReports } from './Migration20261003000000CreateReports.js';
import { Migration20261004000000CreateCommentsAndNotifications } from './Migration20261004000000CreateCommentsAndNotifications.js';
import { Migration20261002000000CreatePagesAndCustomers } from './Migration20261002000000CreatePagesAndCustomers.js';
import { Migration20261005000000EscapeSearchPatterns } from './Migration20261005000000EscapeSearchPatterns.js';

/** Every migration of the photos database, in order. Checked in; never discovered by glob. */
export const migrations: MigrationObject[] = [
  // The kit's tables in this database (webhook deliveries and their attempts, the workflow outbox).
  ...kitMigrations,
  { name: 'Migration20260701000000CreateTeamsAndProjects', class: Migration20260701000000CreateTeamsAndProjects },
  { name: 'Migration20260801000000AddTeamMatchingSettings', class: Migration20260801000000AddTeamMatchingSettings },
  { name: 'Migration20260902000000AddSignInAndDevices', class: Migration20260902000000AddSignInAndDevices },
  { name: 'Migration20260903000000ProjectCreateAndMatchingIndex', class: Migration20260903000000ProjectCreateAndMatchingIndex },
  { name: 'Migration20260904000000CreatePhotosAndPhotoGroups', class: Migration20260904000000CreatePhotosAndPhotoGroups },
  { name: 'Migration20260905000000CreateWebhookEndpoints', class: Migration20260905000000CreateWebhookEndpoints },
  { name: 'Migration20261001000000CreateChecklistsAndTasks', class: Migration20261001000000CreateChecklistsAndTasks },
  { name: 'Migration20261003000000CreateReports', class: Migration20261003000000CreateReports },
  { name: 'Migration20261004000000CreateCommentsAndNotifications', class: Migration20261004000000CreateCommentsAndNotifications },
  { name: 'Migration20261002000000CreatePagesAndCustomers', class: Migration20261002000000CreatePagesAndCustomers },
  { name: 'Migration20261005000000EscapeSearchPatterns', class: Migration20261005000000EscapeSearchPatterns },
];
