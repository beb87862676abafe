export { TOKENS, type Token } from './tokens.js';
export { ResourceScope, type ScopeLog } from './resource-scope.js';
export { get, open, perContainer, provide, resource } from './container.js';
export { closeContainer, createGatewayContainer, registerGateway } from './gateway-container.js';
