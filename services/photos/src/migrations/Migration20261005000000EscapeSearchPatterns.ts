import { Migration } from '@mikro-orm/migrations';

/**
 * The LIKE pattern of a search: `value` normalised like the documents (photos_search.normalize), then its %, _ and \
 * escaped, so they match themselves. Escaping must come after normalising: unaccent() folds the full-width ％ ＿ ＼
 * (and other compatibility forms) to the ASCII wildcards, which escaping the raw text would miss.
 */
export class Migration20261005000000EscapeSearchPatterns extends Migration {
  override up(): void {
    this.addSql(String.raw`create or replace function photos_search.contains_pattern(value text) returns text language sql immutable parallel safe strict as $$ select '%' || replace(replace(replace(photos_search.normalize(value), '\', '\\'), '%', '\%'), '_', '\_') || '%' $$;`);
  }

  override down(): void {
    this.addSql(`drop function if exists photos_search.contains_pattern(text);`);
  }
}
