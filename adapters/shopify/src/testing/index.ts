export { graphqlOrderOf, shopMoney } from './graphql-order.js';
