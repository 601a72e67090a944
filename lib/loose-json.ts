/**
 * JSON read path by path where the compiler cannot know its shape: a merchant's application as saved
 * (a draft of any subset: each field is validated when given, lib/schemas/merchant.ts, and the whole
 * on submit), and the wizard's form values and errors, keyed by field paths built at run time. Its
 * readers take every value as possibly absent (`?.`, `??`). The source's one `any`, named here
 * instead of at each reader.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape is checked at run time, see above
export type Loose = any;
/** An object of such JSON (an application, an owner, a form's values). */
export type LooseJson = Record<string, Loose>;
