import { errorBodySchema } from "../errors";

export const conflict409 = {
  description: "Conflict: the object's state does not allow this (`invalid_state`)",
  content: { "application/json": { schema: errorBodySchema } },
};
