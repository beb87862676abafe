export { TOKENS, type Token } from './tokens.js';
export { ResourceScope, type ScopeLog } from './resource-scope.js';
export {
  closeContainer,
  createGatewayContainer,
  get,
  open,
  perContainer,
  provide,
  registerGateway,
  resource,
} from './gateway-container.js';
