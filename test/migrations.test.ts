import { describe, expect, it } from 'vitest';
import { migrationList, type Migration } from '../storage/migrations/migrate';

const migration = (id: number, name = `m${id}`): Migration => ({ id, name, statements: [] });

describe('the migration list', () => {
  it('takes ids that rise, gaps allowed, and the list as it is', () => {
    const list = [migration(1), migration(2), migration(5)];
    expect(migrationList(list)).toBe(list);
  });

  it('refuses a duplicate id', () => {
    expect(() => migrationList([migration(1), migration(2, 'audit'), migration(2, 'again')])).toThrow(
      'migration again: id 2 is a duplicate',
    );
  });

  it('refuses an id out of order', () => {
    expect(() => migrationList([migration(1), migration(3), migration(2, 'late')])).toThrow(
      'migration late: id 2 comes after id 3',
    );
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the id %s', (id) => {
    expect(() => migrationList([migration(id, 'odd')])).toThrow(`migration odd: id ${id} is not a positive integer`);
  });
});
