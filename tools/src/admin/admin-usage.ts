export const ADMIN_USAGE = `loyalty-gateway admin <group> <action> [args] [--url URL] [--token T]
  --url defaults to $GATEWAY_URL, else http://127.0.0.1:3000; the token comes from GATEWAY_ADMIN_TOKEN unless --token is given.
  Answers print as tables and lines that fit the terminal (120 columns when the output is not one; long values wrap);
  --wide prints every field of a list, one line per row; --json prints the gateway's JSON instead (for scripts).
  A refusal exits 1 with the gateway's message and the command to run next; a usage error exits 2.

  vendors list                             every vendor, and every registered adapter without one (exists: no)
  vendors create SLUG --name NAME          a generic vendor (the slug is permanent: the X-Service-Vendor value)
  vendors rename SLUG --name NAME
  vendors promote SLUG                     generic → featured (needs a registered adapter)
  vendors demote SLUG                      featured → generic (connections and ledger stay)
  vendors settings SLUG --file f.json      replace provider settings (checked by the adapter; never printed back)
  vendors notes SLUG                       handshakes the featured door recorded (e.g. Clover's verificationCode)

  adapters preview SLUG --file payload.json [--store S] [--header 'Name: value' ...] [--fetch-back]
                                           what the adapter makes of a native payload now, without its signature:
                                           each unit's connection and note, every canonical envelope and what it
                                           would earn (the earn preview); nothing is committed. --store maps every
                                           unit for that connection; --fetch-back lets the mapping call the vendor's
                                           API with the connection's credentials (otherwise it says what it would call)

  merchants list                           merchants and their outlets (what connections can be made to)
  merchants create ID --name N --currency EUR --country-code 33 --earn-rate 1 --redemption-rate 100
                                           a merchant of the embedded reference engine
  merchants add-outlet MERCHANT_ID --id O --name N

  connections list [--vendor V] [--merchant M]
  connections create --vendor V --store ID --merchant M --outlet O [--credentials-file f.json]
                                           prints the new secret ONCE
  connections rotate ID [--overlap-seconds N]   new secret once; the old one stays valid N s (default 86400)
  connections deactivate ID | activate ID
  connections credentials ID --file f.json
  connections subscriptions ID             the store's webhook subscriptions at the vendor (Shopify), and duplicates (warnings)
  connections subscriptions ensure ID      subscribe the store to this gateway: create missing, repair moved ones
                                           (Shopify: only with the provider setting managedSubscriptions: true)

  catalog runs [--vendor V] [--connection ID]
  catalog pull --vendor V --connection ID [--wait]   start a pull (202); --wait polls until it ends

  deliveries list [--vendor V] [--store S] [--status 500] [--code C] [--transaction T] [--request-id R]
                  [--nothing-earned [--reason R]] [--since ISO] [--until ISO] [--limit N] [--cursor C] [--wide]
                                           the delivery journal, newest first (every /webhooks and /v1 request): when,
                                           journal id, what it earned (0 and why when a sale earned nothing), the
                                           answer and why (a failure's cause, the warning), transaction; --wide: all.
                                           --nothing-earned: processed sales that earned nothing; --reason one of
                                           walk_in, unknown_customer, below_threshold, other_currency, refunded_first.
                                           --vendor/--store/--status/--code/--nothing-earned alone search 200,000
                                           entries a page: a short page says how far back (searchedBackTo);
                                           --cursor nextCursor goes on
  deliveries show ID                       one delivery's story: what it earned or why not, a failure's cause (which
                                           call, what happened, how long), whether a replay recovered it (ID: the
                                           journal id or the X-Request-ID: the newest that proved its connection,
                                           with every delivery carrying it in matches)
  deliveries replay ID [--force]           re-run a delivery that failed on our side (5xx); the ledger still decides;
                                           --force: even though its secret was revoked or its connection was deactivated
                                           since; a delivery a replay recovered needs none (it would answer duplicate)

  reconcile runs [--vendor V] [--connection ID]   order reconciliation runs (recovered = missed by the webhook)
  reconcile run ID                         reconcile one connection now; prints the run when it ends
`;
