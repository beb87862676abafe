export { registerFeaturedDoors, type RegisterFeaturedDoorsOptions } from './register-featured-doors.js';
export { parseProviderSettings, type ProviderConfig, type ProviderSettingsContext, type ProviderSettingsResult } from './provider-settings.js';
export type { FeaturedDoorOptions, FeaturedResponse, FeaturedResult, FeaturedStore, HandshakeNotes, SkippedUnit } from './featured-types.js';
