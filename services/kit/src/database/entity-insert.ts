// One entity's INSERT, built once from the ORM's metadata and then only filled in: for the hot create paths, where
// MikroORM's query builder re-derives the same statement on every call (renaming keys, checking each value, quoting
// every identifier; ≈ 50 µs of the ~0.5 ms widget session create, the bnpl benchmark's profile). The columns and the
// value conversions are the entity's own (field names, custom types, a many-to-one's key), so the entity definition
// stays the one description of the table; the statement goes where a query builder's would (insertWithWorkflowStart).
import { ReferenceKind, Utils, helper, type EntityName, type EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RowInsert } from '../outbox/enqueue.js';

/** A new row: a value for every stored property of the entity (null where the column is empty); references or keys for many-to-ones. */
export type EntityInsertRow<T> = { readonly [K in keyof T]?: unknown };

interface InsertColumn {
  name: string;
  toDatabase: (value: unknown) => unknown;
}

/**
 * Compiles the INSERT of `entity`'s row: `insert into "table" ("col", …) values (?, …)` over every stored property
 * (scalars and single-column many-to-ones, in the entity's order), and returns the function that fills it in for a
 * row. Values are converted as the query builder converts them (custom types' convertToDatabaseValue, a reference's
 * primary key). A property missing from a row is an error rather than a silent NULL or a skipped database default:
 * the caller states every column. Entities with embeddables, composite foreign keys or formulas are refused when
 * compiled (use the query builder there).
 */
export function compileEntityInsert<T extends object>(em: EntityManager, entity: EntityName<T>): (row: EntityInsertRow<T>) => RowInsert {
  const meta = em.getMetadata().get(entity);
  const platform = em.getPlatform();
  const columns: InsertColumn[] = [];
  const fields: string[] = [];
  for (const prop of meta.props as Array<EntityProperty<T>>) {
    if (prop.persist === false || prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue;
    if (prop.kind === ReferenceKind.ONE_TO_ONE && !prop.owner) continue;
    const singleColumn = prop.fieldNames?.length === 1;
    const supported = singleColumn && !prop.formula && !prop.hasConvertToDatabaseValueSQL && (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE);
    if (!supported) throw new Error(`compileEntityInsert(${meta.className}): ${prop.name} (${prop.kind}) is not a single-column scalar or reference`);
    const customType = prop.customType;
    const convert = customType ? (value: unknown) => customType.convertToDatabaseValue(value, platform, { fromQuery: true, key: prop.name, mode: 'query-data' }) : (value: unknown) => value;
    const isReference = prop.kind !== ReferenceKind.SCALAR;
    columns.push({
      name: prop.name,
      toDatabase: isReference ? (value) => convert(Utils.isEntity(value) ? helper(value).getPrimaryKey() : value) : convert,
    });
    fields.push(platform.quoteIdentifier(prop.fieldNames[0]!));
  }
  const table = platform.quoteIdentifier(meta.schema && meta.schema !== '*' ? `${meta.schema}.${meta.tableName}` : meta.tableName);
  const sql = `insert into ${table} (${fields.join(', ')}) values (${fields.map(() => '?').join(', ')})`;
  return (row) => {
    const values = row as Record<string, unknown>;
    const params = new Array<unknown>(columns.length);
    for (let i = 0; i < columns.length; i += 1) {
      const column = columns[i]!;
      const value = values[column.name];
      if (value === undefined) throw new Error(`compileEntityInsert(${meta.className}): the row has no ${column.name}`);
      params[i] = value === null ? null : column.toDatabase(value);
    }
    return { sql, params };
  };
}
