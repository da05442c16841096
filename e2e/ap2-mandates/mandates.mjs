// Builds AP2 v0.2 mandates for EntryCheck's end-to-end tests with the
// @sd-jwt libraries, independently of the service's Go code.
//
// It reads one JSON request on stdin and writes one JSON answer:
//   {"op": "keys"} makes a user key and an agent provider's key:
//     {"user": <private JWK>, "provider": <private JWK>, "trusted": <JWKS of both public keys>}
//   {"op": "mandates", "keys": <the keys answer>, "offer": <the 402 body's ap2 field>,
//    "now": <unix seconds>, "variant": "...", "other_checkout_jwt": "..."}
//     answers {"checkout_mandate": "...", "payment_mandate": "..."}.
//
// Variants: "direct" (closed mandates signed by the user key), "delegated"
// (open mandates signed by the agent provider, delegating with cnf to an
// agent key that signs the closed ones), "other_checkout" (checkout_hash of
// another Checkout JWT), "amount_off" (one cent more than the offer),
// "kb_expired" (key binding signed ten minutes ago), "untrusted" (signed
// by a key nobody trusts), "merchant_excluded" (the open mandate allows
// another merchant only), "payee_off" (another payee), "instrument_off" (a
// card), "nonce_off" (another nonce), "audience_off" (another audience),
// "unknown_constraint" (an open payment mandate with a constraint type AP2
// does not define).
import { createHash } from "node:crypto";
import { SDJwtInstance } from "@sd-jwt/core";
import { ES256, digest, generateSalt } from "@sd-jwt/crypto-nodejs";

const b64url = (buf) => Buffer.from(buf).toString("base64url");
const sha256 = (s) => b64url(createHash("sha256").update(s).digest());
const publicOf = ({ kty, crv, x, y, kid }) => ({ kty, crv, x, y, ...(kid ? { kid } : {}) });

async function keyPair(kid) {
  const { privateKey } = await ES256.generateKeyPair();
  return { ...privateKey, kid };
}

// issue signs payload as an SD-JWT "<JWT>~<disclosure>~…~" whose
// delegate_payload element, and the parts frame names, are disclosures.
async function issue(key, payload, frame, typ) {
  const sdjwt = new SDJwtInstance({
    signer: await ES256.getSigner(key),
    signAlg: ES256.alg,
    hasher: digest,
    hashAlg: "sha-256",
    saltGenerator: generateSalt,
  });
  return sdjwt.issue(payload, frame, { header: { typ, ...(key.kid ? { kid: key.kid } : {}) } });
}

// closed signs a closed mandate bound to the merchant: aud, nonce, iat,
// and sd_hash of the open mandate it follows, if any.
async function closed(key, content, offer, iat, open) {
  const payload = { delegate_payload: [content], iat, aud: offer.aud, nonce: offer.nonce };
  if (open) payload.sd_hash = sha256(open);
  return issue(key, payload, { delegate_payload: { _sd: [0] } }, "kb+sd-jwt");
}

// chain presents the open mandate, then the closed one.
const chain = (open, closedMandate) => (open ? open + "~" + closedMandate : closedMandate);

async function mandates(req) {
  const { keys, offer, now, variant } = req;
  let checkoutHash = offer.checkout_hash;
  if (variant === "other_checkout") checkoutHash = sha256(req.other_checkout_jwt);
  const amount = { ...offer.payment_amount };
  if (variant === "amount_off") amount.amount += 1;
  const iat = variant === "kb_expired" ? now - 600 : now;
  if (variant === "nonce_off") offer.nonce = "another-nonce";
  if (variant === "audience_off") offer.aud = "https://another-merchant.example";

  const checkout = { vct: "mandate.checkout.1", checkout_jwt: offer.checkout_jwt, checkout_hash: checkoutHash };
  const payment = {
    vct: "mandate.payment.1",
    transaction_id: offer.checkout_hash,
    payee: variant === "payee_off" ? { ...offer.payee, id: "eip155:8453:0x1111111111111111111111111111111111111111" } : offer.payee,
    payment_amount: amount,
    payment_instrument: variant === "instrument_off" ? { id: "card-1", type: "card", description: "Card 4242" } : offer.payment_instrument,
  };

  let signer = keys.user;
  if (variant === "untrusted") signer = await keyPair("stranger");
  const delegated = ["delegated", "merchant_excluded", "unknown_constraint"].includes(variant);
  if (!delegated) {
    return {
      checkout_mandate: await closed(signer, checkout, offer, iat),
      payment_mandate: await closed(signer, payment, offer, iat),
    };
  }

  // Human not present: the agent provider signs open mandates for an agent key.
  const agent = await keyPair();
  const cnf = { jwk: publicOf({ ...agent, kid: undefined }) };
  const allowed =
    variant === "merchant_excluded"
      ? [{ id: "other-merchant.example", name: "Other Merchant", website: "https://other-merchant.example" }]
      : [{ id: "other-merchant.example", name: "Other Merchant" }, offer.merchant];
  const item = JSON.parse(Buffer.from(offer.checkout_jwt.split(".")[1], "base64url")).line_items[0].item;
  const openCheckout = await issue(
    keys.provider,
    {
      delegate_payload: [
        {
          vct: "mandate.checkout.open.1",
          constraints: [
            { type: "checkout.line_items", items: [{ id: "line_1", acceptable_items: [{ id: item.id, title: item.title }], quantity: 1 }] },
            { type: "checkout.allowed_merchants", allowed },
          ],
          cnf,
          iat: now - 60,
          exp: now + 3600,
        },
      ],
    },
    { delegate_payload: { _sd: [0], 0: { constraints: { 1: { allowed: { _sd: allowed.map((_, i) => i) } } } } } },
    "example+sd-jwt",
  );
  const openPayment = await issue(
    keys.provider,
    {
      delegate_payload: [
        {
          vct: "mandate.payment.open.1",
          constraints: [
            { type: "payment.amount_range", currency: "USD", min: 1, max: 100 },
            { type: "payment.allowed_payees", allowed: [offer.payee] },
            { type: "payment.allowed_payment_instruments", allowed: [offer.payment_instrument] },
            { type: "payment.reference", conditional_transaction_id: sha256(openCheckout) },
            ...(variant === "unknown_constraint" ? [{ type: "payment.loyalty_points", points: 10 }] : []),
          ],
          cnf,
          iat: now - 60,
          exp: now + 3600,
        },
      ],
    },
    { delegate_payload: { _sd: [0] } },
    "example+sd-jwt",
  );
  return {
    checkout_mandate: chain(openCheckout, await closed(agent, checkout, offer, iat, openCheckout)),
    payment_mandate: chain(openPayment, await closed(agent, payment, offer, iat, openPayment)),
  };
}

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const req = JSON.parse(input);
  let out;
  if (req.op === "keys") {
    const user = await keyPair("user-1");
    const provider = await keyPair("agent-provider-1");
    out = { user, provider, trusted: { keys: [publicOf(user), publicOf(provider)] } };
  } else if (req.op === "mandates") {
    out = await mandates(req);
  } else {
    throw new Error(`unknown op ${req.op}`);
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
