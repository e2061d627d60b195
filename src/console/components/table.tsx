import type { ComponentChildren } from 'preact';
import type { Loaded } from '../use-load';
import { Show } from './section';

interface TableProps<T> {
  columns: readonly string[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** A row's cells, in the order of `columns`. */
  cells: (row: T) => ComponentChildren[];
  /** The first cell names its row (`<th scope="row">`). */
  rowHeader?: boolean;
  /** A last column of buttons for the row, headed for screen readers only. */
  actions?: (row: T) => ComponentChildren;
  /** Said instead of the table when there is no row; without it, an empty table is shown. */
  empty?: string;
}

/** A table in a box of its own that scrolls sideways on a narrow screen, reachable from the keyboard. */
export function Table<T>({ columns, rows, rowKey, cells, rowHeader, actions, empty }: TableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <p>{empty}</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="group" aria-label="Table (scrolls sideways)">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {cells(row).map((cell, i) =>
                rowHeader && i === 0 ? (
                  <th key={i} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={i}>{cell}</td>
                ),
              )}
              {actions && <td>{actions(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A list as the API answers it. */
type Items<T> = { items: T[] };

/** A loaded list (`{ items }`) as a table: its failure, or its progress while the first answer is awaited. */
export function ItemsTable<T>({
  loaded,
  label,
  ...table
}: Omit<TableProps<T>, 'rows'> & { loaded: Loaded<Items<T>>; label: string }) {
  return (
    <Show loaded={loaded} label={label}>
      {({ items }) => <Table rows={items} {...table} />}
    </Show>
  );
}
