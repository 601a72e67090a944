// What the operator CLI does (`npm run cli -- --help`); cli/commands.ts runs it.

export const usage = `Usage: npm run cli -- <command>

  isv create --name "<display name>" --email <login email> --password <password> [--json]
  isv list [--json]
  isv rotate-key <account_id> [--json]
  isv cost-profile show <account_id> [--json]
  isv cost-profile set <account_id> [--network-bps N] [--processor-bps N] [--processor-per-item CENTS]
      [--ach-per-item CENTS] [--ach-return-cost CENTS] [--dispute-cost CENTS] [--payout-cost CENTS]
      [--instant-payout-bps N] [--revenue-share-percent N] [--json]
      what the platform charges the ISV (cards: interchange at cost plus these), and its share of
      the margin; the figures not given are kept
  isv payouts release <account_id> [--json]
      lift the freeze of a "this wasn't us" on the ISV's payout bank account (ends every such link
      still open; the residuals that wait are paid once the account is verified and past its hold)
  merchant show <merchant_id> [--json]
      status, underwriting's decision and requests, each verification check and the documents
  merchant review <merchant_id> --approve | --decline [--reason "<text>"] | --request <field> --reason "<text>"
  merchant payouts <merchant_id> --approve-bank | --unfreeze
      accept a bank account entered after approval whose check failed; lift the freeze of a
      "this wasn't me" (then the held payouts go, once nothing else holds them)
  merchant reserve <merchant_id> (--rolling <percent> --hold-days <n> | --fixed <cents> [--release-on YYYY-MM-DD])
      --reason "<words the merchant reads>" [--json]
  merchant reserves <merchant_id> [--json]
  merchant reserve-release <merchant_id> <reserve_id> [--json]
      hold back part of a merchant's money, list its reserves, give one back (docs section 20)
  member factors-reset --email <login email> [--json]
      a member who lost its second factor and its recovery codes, and whom no other owner can reset
      (an account's only owner): its factors, codes and sessions go; it sets a factor up again at its
      next sign-in. Check who is asking first: this opens the account to whoever has the password
  keys rewrap [--json]
      after a key rotation (new ENCRYPTION_KEY, the old one in ENCRYPTION_KEYS_PREVIOUS): every
      sensitive field, webhook secret and document written again under the new key
  outbox list [--account <account_id>] [--json]
  webhooks listen --forward-to <url> [--api-url <url>] [--account-sid <sid> --secret-key <key>]
      forwards a sandbox account's events to a local URL, signed (credentials also from
      ACCOUNT_SID and SECRET_KEY; --max-events <n> stops after n)
`;
