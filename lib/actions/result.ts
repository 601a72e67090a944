import { AppError, type FieldError } from "@/lib/errors";

// The one place a server action (or a page's route handler) turns the application's error into an
// answer: a refusal the person can act on (a 4xx `AppError`: its code, its message, each problem by
// its field); anything else is a bug and is thrown (Next logs it and shows the error page).

/** A refused change, as every action reports it: `errors` is the per-field list when the error has one. */
export type Refusal = { ok: false; code: string; message: string; param?: string; errors: FieldError[] };

export type Attempt<T> = { ok: true; value: T } | Refusal;

/** The refusal an error stands for, or the error thrown again when it is not one. */
export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof AppError) || !error.isClientError) throw error;
  return {
    ok: false,
    code: error.code,
    message: error.message,
    ...(error.param !== undefined ? { param: error.param } : {}),
    errors: error.errors ?? [],
  };
}

/** The work's value, or its refusal (see refusalOf). */
export async function attempt<T>(work: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return refusalOf(error);
  }
}

/** Every problem by its field (the error itself, under its own param, when it has no list): for a form's fields. */
export const problemsOf = (refusal: Refusal): FieldError[] =>
  refusal.errors.length
    ? refusal.errors
    : [{ param: refusal.param ?? "", code: refusal.code, message: refusal.message }];

/** The first problem in words ("param: message" for a field of the list): for a form with one message line. */
export const firstProblem = (refusal: Refusal) => {
  const field = refusal.errors[0];
  return field ? `${field.param}: ${field.message}` : refusal.message;
};
