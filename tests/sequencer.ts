import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest file first: the ledger's property test (1,000 sequences on PGlite) runs for minutes
 * alone, so it starts at once and the other files share the other workers beside it, instead of it
 * starting late and running on alone at the end (a clean clone has no timings to order by). The
 * rest in vitest's own order.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const first = sorted.filter((f) => f.moduleId.endsWith("tests/api/ledger-properties.test.ts"));
    return [...first, ...sorted.filter((f) => !first.includes(f))];
  }
}
