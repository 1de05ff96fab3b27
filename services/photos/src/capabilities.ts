// The capability tokens in photos' paths (kit http/capabilities.ts): a report's share token opens its PDF to anyone
// who holds the link, so the access log and the traces keep only `rps_abcd…`. Media and report download URLs carry
// their signature in the query (`signature=`), which the logger redacts by name.
import type { CapabilityToken } from '@tributary/kit';
import { SHARE_TOKEN_FORMAT, reportApi } from './modules/reports/index.js';

export const PHOTOS_CAPABILITIES: readonly CapabilityToken[] = [
  { name: 'report share token', format: SHARE_TOKEN_FORMAT, routes: [{ path: reportApi.shared.path, param: 'token' }] },
];
