import { describe, expect, it } from 'vitest';
import { Role } from '../enums.ts';
import {
  mayChangeChainKams,
  mayEditChain,
  mayReadChain,
  maySeeChainDetails,
} from './store-chain.permissions.ts';
import { forEveryActor } from './test-support/actor-matrix.ts';

const ORGA_ONLY = [Role.Orga];
/** Readers of chains (docs/domain.md §3.9): whoever may see or edit a chain must be one. */
const READERS = [Role.Foodsaver, Role.StoreManager, Role.Ambassador, Role.Orga];

describe('mayReadChain', () => {
  it.each(forEveryActor('any chain', undefined, READERS))('%s', (_who, actor, _facts, expected) => {
    expect(mayReadChain(actor)).toBe(expected);
  });
});

describe('maySeeChainDetails', () => {
  const none = { isStoreChainGroupMember: false, isChainKam: false };
  it.each([
    ...forEveryActor('no relation to the chain', none, ORGA_ONLY),
    ...forEveryActor(
      'member of the store-chain group',
      { ...none, isStoreChainGroupMember: true },
      READERS,
    ),
    ...forEveryActor('KAM of the chain', { ...none, isChainKam: true }, READERS),
  ])('%s', (_who, actor, facts, expected) => {
    expect(maySeeChainDetails(actor, facts)).toBe(expected);
  });
});

describe('mayEditChain', () => {
  const none = { isStoreChainGroupAdmin: false, isChainKam: false };
  it.each([
    ...forEveryActor('no relation (plain member of group 332)', none, ORGA_ONLY),
    ...forEveryActor(
      'admin of the store-chain group',
      { ...none, isStoreChainGroupAdmin: true },
      READERS,
    ),
    ...forEveryActor('KAM of the chain', { ...none, isChainKam: true }, READERS),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayEditChain(actor, facts)).toBe(expected);
  });
});

describe('mayChangeChainKams', () => {
  it.each([
    ...forEveryActor(
      'no relation',
      { isStoreChainGroupAdmin: false, isChainKam: false },
      ORGA_ONLY,
    ),
    ...forEveryActor(
      'KAM of the chain only',
      { isStoreChainGroupAdmin: false, isChainKam: true },
      ORGA_ONLY,
    ),
    ...forEveryActor(
      'admin of the store-chain group',
      { isStoreChainGroupAdmin: true, isChainKam: false },
      READERS,
    ),
  ])('%s', (_who, actor, facts, expected) => {
    expect(mayChangeChainKams(actor, facts)).toBe(expected);
  });
});
