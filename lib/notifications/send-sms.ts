import { outbox } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { createId } from "../ids";

// Text messages (docs/reference.md section 10): a small sender interface whose only transport today is
// the outbox (readable with the operator CLI and, in sandbox, GET /v1/test_helpers/outbox). A real
// SMS provider is another transport of `SmsSender`, chosen here.

export interface SmsSender {
  queue(
    tx: DbOrTx,
    message: { accountId: string; merchantId?: string; kind: string; to: string; text: string; locale: string },
  ): Promise<string>;
}

const outboxSender: SmsSender = {
  async queue(tx, message) {
    const id = createId("msg");
    await tx.insert(outbox).values({
      id,
      channel: "sms",
      accountId: message.accountId,
      merchantId: message.merchantId ?? null,
      kind: message.kind,
      to: message.to,
      subject: "",
      text: message.text,
      html: "",
      locale: message.locale,
      transport: "outbox",
    });
    return id;
  },
};

export const smsSender: SmsSender = outboxSender;
