export { registerFeaturedDoors, type RegisterFeaturedDoorsOptions } from './register-featured-doors.js';
export {
  IGNORED_SETTINGS_KEYS,
  parseProviderSettings,
  type ProviderConfig,
  type ProviderSettingsContext,
  type ProviderSettingsResult,
} from './provider-settings.js';
export type {
  FeaturedDoorOptions,
  FeaturedResponse,
  FeaturedResult,
  FeaturedStore,
  HandshakeNotes,
  SkippedUnit,
} from './featured-types.js';
export {
  VENDOR_CACHE_TTL_MS,
  watchVendorChanges,
  type VendorChangeListener,
  type VendorChanges,
  type VendorChangesOptions,
} from './watch-vendor-changes.js';
