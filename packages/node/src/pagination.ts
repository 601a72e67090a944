/** A page of a list (the API's list envelope). */
export type List<T> = { object: "list"; data: T[]; has_more: boolean; url: string };

/** The cursor parameters every list takes. */
export type ListCursor = { limit?: number; starting_after?: string; ending_before?: string };

/**
 * What a list method answers: awaited, the first page; iterated with `for await`, every item of
 * every page, fetched a page at a time as the loop reaches it (forwards with `starting_after`, or
 * backwards when the query started with `ending_before`).
 */
export class ListPromise<T> implements PromiseLike<List<T>>, AsyncIterable<T> {
  #first: Promise<List<T>> | undefined;

  constructor(
    private readonly fetchPage: (query: ListCursor) => Promise<List<T>>,
    private readonly query: ListCursor,
    private readonly cursorOf: (item: T) => string,
  ) {}

  #firstPage() {
    this.#first ??= this.fetchPage(this.query);
    return this.#first;
  }

  then<A = List<T>, B = never>(
    onFulfilled?: ((page: List<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<List<T> | B> {
    return this.#firstPage().catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const backwards = this.query.ending_before !== undefined;
    let page = await this.#firstPage();
    for (;;) {
      for (const item of page.data) yield item;
      const edge = backwards ? page.data[0] : page.data[page.data.length - 1];
      if (!page.has_more || edge === undefined) return;
      const { starting_after: _after, ending_before: _before, ...rest } = this.query;
      page = await this.fetchPage(
        backwards ? { ...rest, ending_before: this.cursorOf(edge) } : { ...rest, starting_after: this.cursorOf(edge) },
      );
    }
  }

  /** Every item of every page, in order; throws when there are more than `max` (default 10,000). */
  async toArray({ max = 10_000 }: { max?: number } = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length === max) throw new RangeError(`more than ${max} items: raise max, or iterate with for await`);
      items.push(item);
    }
    return items;
  }
}
