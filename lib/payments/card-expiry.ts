/** Whether a card is past the last day of its expiry month (a card is good through that day, UTC). */
export const cardExpired = (card: { expMonth: number | null; expYear: number | null }, now: Date) =>
  card.expYear !== null && card.expMonth !== null && Date.UTC(card.expYear, card.expMonth, 1) <= now.getTime();
