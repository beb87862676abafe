/**
 * The CLI command to run next for a refusal the gateway sent (by its Error `code`), in the CLI's own
 * words rather than the HTTP route's: printed under the gateway's message.
 */
export function nextStep(code: string | undefined, context: { group: string; action: string; positionals: string[] }): string | null {
  const id = context.positionals.at(-1) ?? 'ID';
  switch (code) {
    case 'admin_unauthorized':
      return "Set GATEWAY_ADMIN_TOKEN to the gateway's admin token (or pass --token).";
    case 'vendor_not_found':
      return 'See the vendors: loyalty-gateway admin vendors list; add one: loyalty-gateway admin vendors create SLUG --name NAME';
    case 'adapter_not_found':
      return 'See which vendors this build has an adapter for (adapter: yes): loyalty-gateway admin vendors list';
    case 'adapter_not_registered':
      return 'See which vendors this build has an adapter for (adapter: yes): loyalty-gateway admin vendors list';
    case 'merchant_exists':
      return 'It is there already: loyalty-gateway admin merchants list';
    case 'outlet_exists':
      return 'It is there already: loyalty-gateway admin merchants list';
    case 'subscriptions_not_available':
      return `What it needs is named above; check the connection: loyalty-gateway admin connections list --vendor shopify, and the vendor: loyalty-gateway admin vendors list`;
    case 'replay_not_available':
      return `See why in its story: loyalty-gateway admin deliveries show ${id}. Refused for a revoked secret or a deactivated connection, it replays anyway (journalled as forced) with: loyalty-gateway admin deliveries replay ${id} --force`;
    case 'not_found':
      return "This gateway's admin API is off: start it with GATEWAY_ADMIN_TOKEN set (in development it is on from the first start; the token is printed and kept in admin-token in the data dir).";
    case 'vendor_exists':
      return 'It is there already: loyalty-gateway admin vendors list';
    case 'merchant_not_found':
      return 'See the merchants: loyalty-gateway admin merchants list; add one: loyalty-gateway admin merchants create ID --name … --currency … --country-code … --earn-rate … --redemption-rate …';
    case 'connection_not_found':
      return 'See the connections and their ids: loyalty-gateway admin connections list';
    case 'connection_exists':
      return 'It is there already: loyalty-gateway admin connections list --vendor VENDOR';
    case 'invalid_settings':
      return `Set the vendor's settings first: loyalty-gateway admin vendors settings ${context.group === 'vendors' || context.group === 'adapters' ? id : 'SLUG'} --file settings.json (docs/featured-vendors.md lists each adapter's keys)`;
    case 'reconcile_not_available':
    case 'catalog_not_available':
      return 'Promote the vendor (loyalty-gateway admin vendors promote SLUG) or activate the connection (loyalty-gateway admin connections activate ID).';
    case 'reconcile_run_in_progress':
      return `Wait for it: loyalty-gateway admin reconcile runs --connection ${id}`;
    case 'catalog_run_in_progress':
      return 'Wait for it: loyalty-gateway admin catalog runs --connection ID';
    case 'delivery_not_found':
      return 'Find it: loyalty-gateway admin deliveries list --store STORE --since 2026-01-01T00:00:00Z';
    case 'engine_managed':
      return 'Merchants live in the engine service: add them to its ENGINE_SEED_FILE (docs/engine-service.md).';
    default:
      return null;
  }
}
