export {
  createAuthorizationServer,
  resourceOf,
  METADATA_DOCUMENT_LIMIT,
  type AuthorizationServer,
  type AuthorizationServerOptions,
} from './provider.ts';
export { resolveAccessToken, type AccessTokenUse } from './access.ts';
