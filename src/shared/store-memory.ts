/**
 * What one store's handlers keep in memory (export and verify slots, the membership server's last
 * answer, the last team head witnessed), held by the store's object, so that two stores in one
 * isolate (every team's object may share one) share nothing by construction. A module declares its
 * slot once, with how its value is made (`perStore`); the value lives in each store's memory.
 */
export class StoreMemory {
  private readonly values = new Map<Slot<unknown>, unknown>();

  get<T>(slot: Slot<T>): T {
    if (!this.values.has(slot)) this.values.set(slot, slot.make());
    return this.values.get(slot) as T;
  }
}

export interface Slot<T> {
  make(): T;
}

/** A slot of every store's memory: `of(memory)` is this store's value, made at its first use. */
export function perStore<T>(make: () => T): { of(memory: StoreMemory): T } {
  const slot: Slot<T> = { make };
  return { of: (memory) => memory.get(slot) };
}
