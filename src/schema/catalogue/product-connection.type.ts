// The products of a category as a Relay connection (a list that can grow is a connection).
import { ObjectType } from 'type-graphql';
import { Connection } from '../content/connection.type.js';
import { Product } from './product.type.js';

@ObjectType({ description: 'A page of the products of a category, in listing order' })
export class ProductConnection extends Connection(Product, 'Product') {}
