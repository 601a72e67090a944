import { ledgerProperties } from "./sequences";

// The ledger's property, part 3 of 3 (tests/api/ledger-properties/sequences.ts says why in parts).
ledgerProperties(3);
