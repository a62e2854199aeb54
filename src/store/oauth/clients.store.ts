// Reads and writes of the `clients` collection (managed by `npm run oauth:client`, read by the provider).
import { isDuplicateKey } from '../errors.js';
import type { Store } from '../store.js';
import type { ClientDoc } from './oauth.docs.js';

export function findClient(store: Store, clientId: string): Promise<ClientDoc | null> {
  return store.collection('clients').findOne({ _id: clientId });
}

export function listClients(store: Store): Promise<ClientDoc[]> {
  return store.collection('clients').find({}).sort({ _id: 1 }).toArray();
}

/** Inserts a client; false when the client_id is taken. */
export async function insertClient(store: Store, doc: ClientDoc): Promise<boolean> {
  try {
    await store.collection('clients').insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

export async function removeClient(store: Store, clientId: string): Promise<boolean> {
  const res = await store.collection('clients').deleteOne({ _id: clientId });
  return res.deletedCount === 1;
}
