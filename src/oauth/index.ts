export {
  createAuthorizationServer,
  type AuthorizationServer,
  type AuthorizationServerOptions,
} from './provider.ts';
export { resolveAccessToken } from './access.ts';
