/**
 * A payment request's total, what the customer pays: its amount, tax and tip, in cents. The one sum
 * (the pay page, the charge's terms, the API's `total`, the ACH authorization, the home).
 */
export const requestTotal = (request: { amount: number; tax: number; tip: number }) =>
  request.amount + request.tax + request.tip;
