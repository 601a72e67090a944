/**
 * Writes in groups: while one group's statement runs, the next gathers, so under load one
 * statement records many items (each caller waits for its own group's commit). When a group's
 * statement fails, each of its items is written alone, so one bad item fails only its own caller.
 * (Webhook deliveries record their successes this way.)
 */
export function coalescer<T>(write: (items: T[]) => Promise<void>) {
  let queue: { item: T; done: (error?: unknown) => void }[] = [];
  let flushing = false;
  async function flush() {
    flushing = true;
    while (queue.length > 0) {
      const group = queue;
      queue = [];
      try {
        await write(group.map((g) => g.item));
        for (const g of group) g.done();
      } catch (error) {
        // One bad item must not fail the others: each is written alone.
        const [only] = group;
        if (only && group.length === 1) only.done(error);
        else
          for (const g of group)
            await write([g.item]).then(
              () => g.done(),
              (e: unknown) => g.done(e),
            );
      }
    }
    flushing = false;
  }
  return {
    add(item: T) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, done: (error) => (error ? reject(error) : resolve()) });
        if (!flushing) void flush();
      });
    },
  };
}
