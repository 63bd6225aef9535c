import Fastify from 'fastify';
import { IsSchema, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as exported from './index.ts';
import {
  BananaBodySchema,
  BananaParamsSchema,
  BananaSchema,
  ChainIdParamsSchema,
  CooperationStatusSchema,
  ConversationIdParamsSchema,
  CurrentUserSchema,
  ForumPostHideBodySchema,
  ForumPostHideStateSchema,
  GroupApplicationParamsSchema,
  LoginBodySchema,
  MessageBodySchema,
  MessageSchema,
  OAuthClientBodySchema,
  OAuthClientSchema,
  OAuthClientWithSecretSchema,
  ProblemSchema,
  QuizAnswerParamsSchema,
  ReadStatusQuerySchema,
  RegionOptionsBodySchema,
  RegionOptionsParamsSchema,
  RegionSchema,
  RegionTypeSchema,
  ReportSchema,
  ReportUserSchema,
  ResourceSchema,
  SearchIndexSchema,
  StoreChainReadSchema,
  StoreChainSchema,
  StoreChainUpdateBodySchema,
  StoreLogEntrySchema,
  StoreLogParamsSchema,
  PageQuerySchema,
  StoreTeamRequestSchema,
  StoreTeamStatusSchema,
  UserIdParamsSchema,
  UserStubSchema,
  UserinfoSchema,
  parseIdParam,
} from './index.ts';

/**
 * How Fastify's default validator (Ajv 8 with coerceTypes 'array' and removeAdditional true)
 * treats an example TypeBox refuses: it converts a scalar to the declared type, or drops a key
 * that `additionalProperties: false` forbids, and then accepts the request.
 */
type FastifyLeniency = 'coerces' | 'strips';

interface Invalid {
  readonly why: string;
  readonly value: unknown;
  readonly fastify?: FastifyLeniency;
}

interface Examples {
  readonly schema: TSchema;
  readonly valid: readonly unknown[];
  readonly invalid: readonly Invalid[];
}

const T = '2026-11-22T04:53:00+01:00';
const stub = {
  id: 7,
  name: 'Ada',
  avatar: '/api/uploads/1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  isSleeping: false,
};
const sleeper = { id: 8, name: 'Bo', avatar: null, isSleeping: true };
const reportUser = { ...stub, mail: 'ada@example.org', lastName: 'Lovelace' };
const chain = {
  id: 1,
  name: 'Bio Markt',
  status: 2,
  headquartersZip: '10115',
  headquartersCity: 'Berlin',
  headquartersCountry: 'Deutschland',
  allowPress: false,
  forumThread: 12,
  notes: 'Talks with head office',
  commonStoreInformation: 'Pickups after closing time',
  estimatedStoreCount: 40,
  modificationDate: T,
  regionId: 332,
};
const hiddenChain = {
  ...chain,
  forumThread: null,
  notes: null,
  estimatedStoreCount: null,
  regionId: null,
};
const entry = { id: 1, name: 'Münster', searchString: 'Münster;muenster' };
const searchIndex = {
  regions: [
    {
      ...entry,
      email: 'muenster@example.org',
      parentId: 3,
      parentName: 'NRW',
      isMember: true,
      ambassadors: [stub],
    },
  ],
  workingGroups: [
    {
      ...entry,
      email: '',
      parentId: null,
      parentName: null,
      isMember: true,
      isAdmin: false,
      admins: [],
    },
  ],
  stores: [
    {
      ...entry,
      cooperationStatus: 5,
      street: 'Hauptstr. 1',
      zipCode: '48143',
      city: 'Münster',
      regionId: 1,
      regionName: 'Münster',
      membershipStatus: 1,
      isManager: false,
      chainName: null,
    },
  ],
  foodSharePoints: [
    { ...entry, street: null, zipCode: null, city: null, regionId: 1, regionName: 'Münster' },
  ],
  chats: [
    {
      ...entry,
      name: 'Ada',
      lastMessageSentAt: T,
      lastFoodsaverId: 7,
      lastFoodsaverName: 'Ada',
      lastMessage: 'See you',
      members: [stub, sleeper],
      memberCount: 2,
    },
  ],
  threads: [
    {
      ...entry,
      lastPostSentAt: T,
      pinnedLevel: 0,
      isClosed: false,
      isInsideAmbassadorForum: false,
      postId: 99,
      regionId: 1,
      regionName: 'Münster',
      body: 'Hello',
      relevance: 0.5,
    },
  ],
  users: [
    {
      ...entry,
      avatar: null,
      lastName: 'Lovelace',
      mobile: null,
      isBuddy: true,
      isVerified: true,
      regionId: 1,
      regionName: 'Münster',
      email: null,
    },
  ],
  mails: [
    {
      ...entry,
      senderMail: 'a@example.org',
      senderName: null,
      recipientMail: 'b@example.org',
      recipientName: 'B',
      recipientCount: '3',
      hasAttachments: false,
      sentAt: '2026-11-22 04:53:00',
      folder: 1,
    },
  ],
  events: [
    {
      ...entry,
      locationName: null,
      status: 'maybe',
      startAt: T,
      endAt: T,
      locationType: 0,
      regionId: 1,
      regionName: 'Münster',
    },
  ],
  polls: [
    {
      ...entry,
      startAt: '2026-11-22 04:53:00',
      endAt: '2026-12-22 04:53:00',
      regionId: 1,
      regionName: 'Münster',
      hasVoted: false,
    },
  ],
};
const client = {
  clientId: 'community-app',
  name: 'Community App',
  confidential: true,
  active: true,
  redirectUris: ['https://app.example.org/callback'],
  scopes: ['openid', 'profile'],
  grantTypes: ['authorization_code', 'refresh_token'],
  requiredRegionIds: [],
};
const currentUser = {
  id: 7,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.org',
  role: 1,
  verified: true,
  isSleeping: false,
  avatar: null,
  homeRegionId: null,
};

const examples: Record<string, Examples> = {
  CooperationStatus: {
    schema: CooperationStatusSchema,
    valid: [0, 2, 4, 7],
    invalid: [
      { why: 'unused 3', value: 3 },
      { why: '8', value: 8 },
    ],
  },
  StoreTeamStatus: {
    schema: StoreTeamStatusSchema,
    valid: [0, 3],
    invalid: [{ why: '4', value: 4 }],
  },
  RegionType: {
    schema: RegionTypeSchema,
    valid: [0, 1, 7, 9],
    invalid: [
      { why: 'unused 4', value: 4 },
      { why: '10', value: 10 },
    ],
  },
  UserStub: {
    schema: UserStubSchema,
    valid: [stub, sleeper],
    invalid: [
      { why: 'avatar absent instead of null', value: { id: 7, name: 'Ada', isSleeping: false } },
      { why: 'id 0', value: { ...stub, id: 0 } },
    ],
  },
  ReportUser: {
    schema: ReportUserSchema,
    valid: [reportUser],
    invalid: [{ why: 'no lastName', value: { ...stub, mail: 'ada@example.org' } }],
  },
  Report: {
    schema: ReportSchema,
    valid: [
      {
        id: 1,
        message: 'Did not come',
        reason: 'Missed pickup',
        reportedAt: T,
        store: { id: 3, name: 'Bio Markt' },
        reporter: reportUser,
        reported: { ...reportUser, id: 9 },
        forumThreadId: null,
        status: 'custom status text',
        consequence: 'reports.consequences.yellow_card',
        reminderAt: null,
        reportedRegionId: 1,
      },
      {
        id: 2,
        message: '',
        reason: '',
        reportedAt: T,
        store: null,
        reporter: reportUser,
        reported: reportUser,
        forumThreadId: 4,
        status: null,
        consequence: null,
        reminderAt: T,
        reportedRegionId: null,
      },
    ],
    invalid: [
      {
        why: 'a consequence without its translation key prefix',
        value: {
          id: 1,
          message: '',
          reason: '',
          reportedAt: T,
          store: null,
          reporter: reportUser,
          reported: reportUser,
          forumThreadId: null,
          status: 'reports.statuses.to_do',
          consequence: 'warning',
          reminderAt: null,
          reportedRegionId: null,
        },
      },
      {
        why: 'unknown consequence',
        value: {
          id: 1,
          message: '',
          reason: '',
          reportedAt: T,
          store: null,
          reporter: reportUser,
          reported: reportUser,
          forumThreadId: null,
          status: 'reports.statuses.to_do',
          consequence: 'reports.consequences.green_card',
          reminderAt: null,
          reportedRegionId: null,
        },
      },
      {
        why: 'timestamp without offset',
        value: {
          id: 1,
          message: '',
          reason: '',
          reportedAt: '2026-11-22 04:53:00',
          store: null,
          reporter: reportUser,
          reported: reportUser,
          forumThreadId: null,
          status: 'reports.statuses.to_do',
          consequence: null,
          reminderAt: null,
          reportedRegionId: null,
        },
      },
    ],
  },
  StoreChain: {
    schema: StoreChainSchema,
    valid: [chain, hiddenChain],
    invalid: [
      { why: 'status 5', value: { ...chain, status: 5 } },
      { why: 'notes absent', value: { ...chain, notes: undefined } },
    ],
  },
  StoreChainRead: {
    schema: StoreChainReadSchema,
    valid: [
      { chain, storeCount: 12 },
      { chain: hiddenChain, storeCount: null },
    ],
    invalid: [{ why: 'the bare chain', value: chain }],
  },
  StoreChainUpdateBody: {
    schema: StoreChainUpdateBodySchema,
    valid: [
      { name: 'Bio Markt' },
      { kams: [7, 8], status: 0, estimatedStoreCount: 0, headquartersCountry: '' },
      {
        name: 'x'.repeat(120),
        status: 4,
        headquartersZip: '12345',
        headquartersCity: 'c'.repeat(50),
        headquartersCountry: 'c'.repeat(50),
        allowPress: true,
        forumThread: 3,
        notes: 'n'.repeat(200),
        commonStoreInformation: 'info',
        kams: [],
        estimatedStoreCount: 10,
      },
    ],
    invalid: [
      { why: 'empty patch', value: {} },
      { why: 'name with a newline', value: { name: 'Bio\nMarkt' } },
      { why: 'name with markup', value: { name: '<b>Bio</b>' } },
      { why: 'blank name', value: { name: '   ' } },
      { why: 'name of 121 characters', value: { name: 'x'.repeat(121) } },
      { why: 'zip of 6 characters', value: { headquartersZip: '123456' } },
      { why: 'empty zip', value: { headquartersZip: '' } },
      { why: 'city of 51 characters', value: { headquartersCity: 'c'.repeat(51) } },
      { why: 'empty city', value: { headquartersCity: '' } },
      { why: 'country of 51 characters', value: { headquartersCountry: 'c'.repeat(51) } },
      { why: 'notes of 201 characters', value: { notes: 'n'.repeat(201) } },
      { why: 'negative store count', value: { estimatedStoreCount: -1 } },
      { why: 'status 5', value: { status: 5 } },
      { why: 'kams of strings', value: { kams: ['x'] } },
      { why: 'kams as a number', value: { kams: 7 }, fastify: 'coerces' },
      { why: 'unknown key beside a known one', value: { name: 'A', kam: [1] }, fastify: 'strips' },
    ],
  },
  StoreLogEntry: {
    schema: StoreLogEntrySchema,
    valid: [
      {
        performedAt: T,
        actionType: 11,
        actor: stub,
        target: null,
        dateReference: T,
        content: null,
        reason: null,
      },
      {
        performedAt: T,
        actionType: 7,
        actor: stub,
        target: sleeper,
        dateReference: null,
        content: 'left the team',
        reason: 'moved away',
      },
    ],
    invalid: [
      {
        why: 'action type 21',
        value: {
          performedAt: T,
          actionType: 21,
          actor: stub,
          target: null,
          dateReference: null,
          content: null,
          reason: null,
        },
      },
    ],
  },
  Resource: {
    schema: ResourceSchema,
    valid: [
      {
        id: 1,
        name: 'Drill',
        description: 'Cordless',
        user: stub,
        regionId: 1,
        isHomeRegion: true,
        isUserActive: true,
        isPrivate: false,
        isFavorite: false,
        openness: 5,
      },
    ],
    invalid: [
      {
        why: 'openness 6',
        value: {
          id: 1,
          name: 'Drill',
          description: '',
          user: stub,
          regionId: 1,
          isHomeRegion: true,
          isUserActive: true,
          isPrivate: false,
          isFavorite: false,
          openness: 6,
        },
      },
      {
        why: 'name of 36 characters',
        value: {
          id: 1,
          name: 'd'.repeat(36),
          description: '',
          user: stub,
          regionId: 1,
          isHomeRegion: true,
          isUserActive: true,
          isPrivate: false,
          isFavorite: false,
          openness: 1,
        },
      },
    ],
  },
  Region: {
    schema: RegionSchema,
    valid: [
      {
        id: 1,
        name: 'Münster',
        type: 1,
        adminIds: [7],
        parentId: 3,
        masterId: 0,
        mailbox: 'muenster',
        emailName: 'Foodsharing Münster',
        workgroupFunction: 0,
        allowHidingInForum: true,
        timezone: 'Europe/Berlin',
      },
      {
        id: 2,
        name: 'Root',
        type: 0,
        adminIds: [],
        parentId: 0,
        masterId: 0,
        mailbox: '',
        emailName: '',
        workgroupFunction: 10,
        allowHidingInForum: false,
        timezone: 'America/Argentina/Buenos_Aires',
      },
      {
        id: 3,
        name: 'Moderation',
        type: 7,
        adminIds: [],
        parentId: 1,
        masterId: 1,
        mailbox: '',
        emailName: '',
        workgroupFunction: 10,
        allowHidingInForum: false,
        timezone: null,
      },
    ],
    invalid: [
      {
        why: 'no parent written as null, not 0',
        value: {
          id: 1,
          name: 'X',
          type: 1,
          adminIds: [],
          parentId: null,
          masterId: 0,
          mailbox: '',
          emailName: '',
          workgroupFunction: 0,
          allowHidingInForum: false,
          timezone: null,
        },
      },
      {
        why: 'no mailbox written as null, not empty',
        value: {
          id: 1,
          name: 'X',
          type: 1,
          adminIds: [],
          parentId: 0,
          masterId: 0,
          mailbox: null,
          emailName: '',
          workgroupFunction: 0,
          allowHidingInForum: false,
          timezone: null,
        },
      },
      {
        why: 'unused type 4',
        value: {
          id: 1,
          name: 'X',
          type: 4,
          adminIds: [],
          parentId: 0,
          masterId: 0,
          mailbox: '',
          emailName: '',
          workgroupFunction: 0,
          allowHidingInForum: false,
          timezone: null,
        },
      },
      {
        why: 'timezone not Area/City',
        value: {
          id: 1,
          name: 'X',
          type: 1,
          adminIds: [],
          parentId: 0,
          masterId: 0,
          mailbox: '',
          emailName: '',
          workgroupFunction: 0,
          allowHidingInForum: false,
          timezone: '+01:00',
        },
      },
    ],
  },
  RegionOptionsBody: {
    schema: RegionOptionsBodySchema,
    valid: [
      {},
      { enableReportButton: true, selectedReportReasonOptions: 2, enableReportReasonOther: false },
      {
        regionPickupRuleActive: true,
        regionPickupRuleTimespan: 31,
        regionPickupRuleLimit: 14,
        regionPickupRuleLimitDay: 1,
        regionPickupRuleInactive: 72,
      },
      { regionPickupRuleTimespan: 1, regionPickupRuleLimit: 1, regionPickupRuleInactive: 4 },
    ],
    invalid: [
      { why: 'timespan 0', value: { regionPickupRuleTimespan: 0 } },
      { why: 'timespan 32', value: { regionPickupRuleTimespan: 32 } },
      { why: 'limit 15', value: { regionPickupRuleLimit: 15 } },
      { why: 'limit 0', value: { regionPickupRuleLimit: 0 } },
      { why: 'limit per day 0', value: { regionPickupRuleLimitDay: 0 } },
      { why: 'inactive 3 hours', value: { regionPickupRuleInactive: 3 } },
      { why: 'inactive 73 hours', value: { regionPickupRuleInactive: 73 } },
      { why: 'reason options 3', value: { selectedReportReasonOptions: 3 } },
      { why: 'reason options 0', value: { selectedReportReasonOptions: 0 } },
      { why: 'fractional limit', value: { regionPickupRuleLimit: 1.5 } },
      { why: 'button as a string', value: { enableReportButton: 'yes' } },
      { why: 'button as "true"', value: { enableReportButton: 'true' }, fastify: 'coerces' },
      { why: 'unknown key', value: { enableEverything: true }, fastify: 'strips' },
    ],
  },
  Banana: {
    schema: BananaSchema,
    valid: [{ message: 'Thank you', user: stub, time: T }],
    invalid: [{ why: 'no sender', value: { message: 'Thank you', time: T } }],
  },
  BananaBody: {
    schema: BananaBodySchema,
    // Under 100 characters is still well-formed: the service answers 422.
    valid: [{ message: 'short' }, { message: 'b'.repeat(5000) }],
    invalid: [
      { why: 'message too long', value: { message: 'b'.repeat(5001) } },
      { why: 'no message', value: {} },
      { why: 'message as an object', value: { message: { text: 'hi' } } },
    ],
  },
  StoreTeamRequest: {
    schema: StoreTeamRequestSchema,
    valid: [
      { user: stub, firstName: 'Ada', verified: true, distanceInKm: 3, date: T, message: 'Hi' },
      { user: sleeper, firstName: 'Bo', verified: false, distanceInKm: -1, date: T, message: null },
    ],
    invalid: [
      {
        why: 'distance withheld as null',
        value: {
          user: stub,
          firstName: 'A',
          verified: true,
          distanceInKm: null,
          date: T,
          message: '',
        },
      },
      {
        why: 'distance -2',
        value: {
          user: stub,
          firstName: 'A',
          verified: true,
          distanceInKm: -2,
          date: T,
          message: '',
        },
      },
    ],
  },
  MessageBody: {
    schema: MessageBodySchema,
    valid: [{ body: 'Hello' }, { body: '  hi  ', clientKey: '0123456789ab' }],
    invalid: [
      { why: 'empty body', value: { body: '' } },
      { why: 'blank body', value: { body: ' \n\t ' } },
      { why: 'clientKey in upper case', value: { body: 'Hi', clientKey: '0123456789AB' } },
      { why: 'clientKey of 13 characters', value: { body: 'Hi', clientKey: '0123456789abc' } },
      { why: 'body too long', value: { body: 'm'.repeat(10_001) } },
    ],
  },
  Message: {
    schema: MessageSchema,
    valid: [{ id: 1, body: 'Hello', sentAt: T, authorId: 7 }],
    invalid: [{ why: 'no author', value: { id: 1, body: 'Hello', sentAt: T } }],
  },
  ForumPostHideBody: {
    schema: ForumPostHideBodySchema,
    valid: [{ reason: 'Insult' }, { reason: 'r'.repeat(255) }],
    invalid: [
      { why: 'empty reason', value: { reason: '' } },
      { why: 'blank reason', value: { reason: '   ' } },
      { why: 'reason of 256 characters', value: { reason: 'r'.repeat(256) } },
    ],
  },
  ForumPostHideState: {
    schema: ForumPostHideStateSchema,
    valid: [
      { postId: 5, isHidden: false, hide: null },
      { postId: 5, isHidden: true, hide: { reason: 'Insult', moderator: stub, hiddenAt: T } },
    ],
    invalid: [
      {
        why: 'hide record without moderator',
        value: { postId: 5, isHidden: true, hide: { reason: 'x', hiddenAt: T } },
      },
    ],
  },
  SearchIndex: {
    schema: SearchIndexSchema,
    valid: [
      searchIndex,
      {
        regions: [],
        workingGroups: [],
        stores: [],
        foodSharePoints: [],
        chats: [],
        threads: [],
        users: [],
        mails: [],
        events: [],
        polls: [],
      },
    ],
    invalid: [
      { why: 'polls missing', value: { ...searchIndex, polls: undefined } },
      {
        why: 'mail sent at in ISO form',
        value: { ...searchIndex, mails: [{ ...searchIndex.mails[0], sentAt: T }] },
      },
      {
        why: 'recipientCount not digits',
        value: { ...searchIndex, mails: [{ ...searchIndex.mails[0], recipientCount: 'three' }] },
      },
      {
        why: 'unknown event status',
        value: { ...searchIndex, events: [{ ...searchIndex.events[0], status: 'declined' }] },
      },
      {
        why: 'entry without searchString',
        value: {
          ...searchIndex,
          regions: [{ ...searchIndex.regions[0], searchString: undefined }],
        },
      },
    ],
  },
  Userinfo: {
    schema: UserinfoSchema,
    valid: [
      { sub: '7', preferred_username: 'Ada7' },
      {
        sub: '7',
        preferred_username: 'Ada7',
        name: 'Ada Lovelace',
        given_name: 'Ada',
        family_name: 'Lovelace',
        picture: 'https://example.org/api/uploads/1b4e28ba-2fa1-11d2-883f-0016d3cca427',
        locale: 'de-DE',
        email: 'ada@example.org',
        email_verified: true,
        region_ids: ['1', '3'],
        region_ambassador: [],
        groups: [],
      },
      {
        sub: '7',
        preferred_username: 'Ada7',
        region_ids: ['3', '17'],
        region_ambassador: ['3'],
        groups: ['region:3', 'region:3:ambassador', 'workgroup:17'],
      },
    ],
    invalid: [
      { why: 'numeric sub', value: { sub: 7, preferred_username: 'Ada7' } },
      { why: 'no preferred_username', value: { sub: '7' } },
      { why: 'locale en-GB', value: { sub: '7', preferred_username: 'A7', locale: 'en-GB' } },
      { why: 'numeric region ids', value: { sub: '7', preferred_username: 'A7', region_ids: [1] } },
      { why: 'numeric groups', value: { sub: '7', preferred_username: 'A7', groups: [3] } },
      {
        why: 'a group named by its name',
        value: { sub: '7', preferred_username: 'A7', groups: ['Musterstadt'] },
      },
    ],
  },
  OAuthClientBody: {
    schema: OAuthClientBodySchema,
    valid: [
      client,
      {
        ...client,
        clientId: 'spa.client_1~x',
        confidential: false,
        redirectUris: ['http://localhost:3000/cb/', 'com.example.app:/oauth'],
        scopes: ['profile', 'openid', 'email', 'regions'],
        grantTypes: ['authorization_code'],
        requiredRegionIds: [1, 2],
        postLogoutRedirectUris: ['https://spa.example/signed-out'],
      },
      {
        ...client,
        logoUri: 'https://spa.example/logo.svg',
        clientUri: 'https://spa.example/',
        policyUri: 'https://spa.example/privacy#data',
        tosUri: 'https://spa.example/terms?lang=de',
      },
    ],
    invalid: [
      { why: 'a javascript: policy URI', value: { ...client, policyUri: 'javascript:alert(1)' } },
      { why: 'an http logo URI', value: { ...client, logoUri: 'http://spa.example/logo.png' } },
      {
        why: 'a home page URI with markup',
        value: { ...client, clientUri: 'https://spa.example/"><script>' },
      },
      {
        why: 'post-logout redirect URI with fragment',
        value: { ...client, postLogoutRedirectUris: ['https://a.example/bye#x'] },
      },
      { why: 'scopes without openid', value: { ...client, scopes: ['profile'] } },
      { why: 'unknown scope', value: { ...client, scopes: ['openid', 'admin'] } },
      { why: 'only refresh_token', value: { ...client, grantTypes: ['refresh_token'] } },
      {
        why: 'implicit grant',
        value: { ...client, grantTypes: ['authorization_code', 'implicit'] },
      },
      { why: 'no redirect URI', value: { ...client, redirectUris: [] } },
      { why: 'relative redirect URI', value: { ...client, redirectUris: ['/callback'] } },
      {
        why: 'redirect URI with fragment',
        value: { ...client, redirectUris: ['https://a.example/cb#x'] },
      },
      { why: 'client id with a space', value: { ...client, clientId: 'my app' } },
      { why: 'client id of 101 characters', value: { ...client, clientId: 'c'.repeat(101) } },
      { why: 'secret in the input', value: { ...client, secret: 'x' }, fastify: 'strips' },
    ],
  },
  OAuthClient: {
    schema: OAuthClientSchema,
    valid: [
      { ...client, changedBy: 7, changedAt: T },
      { ...client, changedBy: null, changedAt: T },
    ],
    invalid: [{ why: 'no changedAt', value: { ...client, changedBy: 7 } }],
  },
  OAuthClientWithSecret: {
    schema: OAuthClientWithSecretSchema,
    valid: [
      { client: { ...client, changedBy: 7, changedAt: T }, secret: 'ab'.repeat(32) },
      { client: { ...client, confidential: false, changedBy: 7, changedAt: T }, secret: null },
    ],
    invalid: [
      {
        why: 'secret of 63 hex digits',
        value: { client: { ...client, changedBy: 7, changedAt: T }, secret: 'a'.repeat(63) },
      },
    ],
  },
  Problem: {
    schema: ProblemSchema,
    valid: [
      {
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        code: 'CSRF_FAILED',
        requestId: 'req-1',
      },
      {
        type: 'https://example.org/problems/validation',
        title: 'Bad Request',
        status: 400,
        detail: 'body/name must NOT have more than 120 characters',
        code: 'VALIDATION_FAILED',
        requestId: 'req-2',
        errors: [{ path: '/body/name', message: 'must NOT have more than 120 characters' }],
      },
    ],
    invalid: [
      {
        why: 'lower-case code',
        value: { type: 'about:blank', title: 'x', status: 403, code: 'csrf', requestId: 'r' },
      },
      {
        why: 'status 200',
        value: { type: 'about:blank', title: 'x', status: 200, code: 'X', requestId: 'r' },
      },
      { why: 'no requestId', value: { type: 'about:blank', title: 'x', status: 404, code: 'X' } },
    ],
  },
  LoginBody: {
    schema: LoginBodySchema,
    valid: [
      { email: 'ada@example.org', password: 'p' },
      { email: 'ada@example.org', password: 'p'.repeat(1024), rememberMe: true },
    ],
    invalid: [
      { why: 'not an email', value: { email: 'ada', password: 'secret' } },
      { why: 'email over 255', value: { email: `${'a'.repeat(250)}@example.org`, password: 'x' } },
      { why: 'empty password', value: { email: 'ada@example.org', password: '' } },
      {
        why: 'password over 1024',
        value: { email: 'ada@example.org', password: 'p'.repeat(1025) },
      },
      {
        why: 'rememberMe as a word',
        value: { email: 'a@example.org', password: 'x', rememberMe: 'yes' },
      },
      {
        why: 'unknown key',
        value: { email: 'a@example.org', password: 'x', admin: true },
        fastify: 'strips',
      },
    ],
  },
  CurrentUser: {
    schema: CurrentUserSchema,
    valid: [currentUser, { ...currentUser, role: 4, avatar: '/api/uploads/x', homeRegionId: 1 }],
    invalid: [
      { why: 'role 5', value: { ...currentUser, role: 5 } },
      { why: 'homeRegionId absent', value: { ...currentUser, homeRegionId: undefined } },
    ],
  },
  StoreLogParams: {
    schema: StoreLogParamsSchema,
    valid: [
      { storeId: 1, fromDate: '2026-06-01T00:00:00Z', toDate: T, storeLogActionIds: '1,2,20' },
    ],
    invalid: [
      {
        why: 'action ids with a trailing comma',
        value: { storeId: 1, fromDate: T, toDate: T, storeLogActionIds: '1,' },
      },
      {
        why: 'date without time',
        value: { storeId: 1, fromDate: '2026-06-01', toDate: T, storeLogActionIds: '1' },
      },
      { why: 'store id 0', value: { storeId: 0, fromDate: T, toDate: T, storeLogActionIds: '1' } },
      {
        why: 'a space between date and time',
        value: { storeId: 1, fromDate: '2026-06-01 00:00:00Z', toDate: T, storeLogActionIds: '1' },
      },
      {
        why: 'an offset without colon',
        value: {
          storeId: 1,
          fromDate: T,
          toDate: '2026-06-01T00:00:00+0100',
          storeLogActionIds: '1',
        },
      },
      {
        why: 'a leap second',
        value: { storeId: 1, fromDate: '2026-06-30T23:59:60Z', toDate: T, storeLogActionIds: '1' },
      },
    ],
  },
  PageQuery: {
    schema: PageQuerySchema,
    valid: [{}, { limit: 1, offset: 0 }, { limit: 500 }, { limit: 1000 }],
    invalid: [
      { why: 'limit 0', value: { limit: 0 } },
      { why: 'limit 1001', value: { limit: 1001 } },
      { why: 'negative offset', value: { offset: -1 } },
    ],
  },
  ReadStatusQuery: {
    schema: ReadStatusQuerySchema,
    // Only `1` reads; anything else marks unread, so any text is a valid `read`.
    valid: [{}, { read: '0' }, { read: '1' }, { read: '2' }, { read: '' }],
    invalid: [{ why: 'read an object', value: { read: { x: 1 } } }],
  },
  PositiveIdParams: {
    schema: ChainIdParamsSchema,
    valid: [{ chainId: '1' }, { chainId: '332' }],
    invalid: [
      { why: 'zero', value: { chainId: '0' } },
      { why: 'leading zero', value: { chainId: '012' } },
      { why: 'not digits', value: { chainId: '1a' } },
      { why: 'negative', value: { chainId: '-1' } },
    ],
  },
  DigitsParams: {
    schema: ConversationIdParamsSchema,
    valid: [{ conversationId: '0' }, { conversationId: '007' }],
    invalid: [
      { why: 'empty', value: { conversationId: '' } },
      { why: 'decimal', value: { conversationId: '1.5' } },
    ],
  },
  QuizAnswerParams: {
    schema: QuizAnswerParamsSchema,
    valid: [{ quizId: '1', questionId: '2', answerId: '3' }],
    invalid: [
      { why: 'answer id with sign', value: { quizId: '1', questionId: '2', answerId: '+3' } },
    ],
  },
  GroupApplicationParams: {
    schema: GroupApplicationParamsSchema,
    valid: [{ groupId: '392', userId: '7' }],
    invalid: [{ why: 'user id 0', value: { groupId: '392', userId: '0' } }],
  },
  IntegerIdParams: {
    schema: UserIdParamsSchema,
    valid: [{ userId: 1 }, { userId: 2_147_483_647 }],
    invalid: [
      { why: 'zero', value: { userId: 0 } },
      { why: 'overflows 32 bits', value: { userId: 2_147_483_648 } },
      { why: 'fraction', value: { userId: 1.5 } },
    ],
  },
  BananaParams: {
    schema: BananaParamsSchema,
    valid: [{ recipientId: 1, senderId: 2 }],
    invalid: [{ why: 'no sender', value: { recipientId: 1 } }],
  },
  RegionOptionsParams: {
    schema: RegionOptionsParamsSchema,
    valid: [{ regionId: 0 }, { regionId: 1 }],
    invalid: [{ why: 'negative', value: { regionId: -1 } }],
  },
};

const table = Object.entries(examples);

describe('TypeBox value checker', () => {
  describe.each(table)('%s', (_name, { schema, valid, invalid }) => {
    it.each(valid.map((value, i) => [i, value] as const))(
      'accepts valid example %i',
      (_i, value) => {
        expect([...Value.Errors(schema, value)]).toEqual([]);
      },
    );
    it.each(invalid.map((example) => [example.why, example] as const))(
      'refuses: %s',
      (_why, example) => {
        expect(Value.Check(schema, example.value)).toBe(false);
      },
    );
  });
});

function exportedSchemas(): [string, TSchema][] {
  const entries: [string, unknown][] = Object.entries(exported);
  return entries.filter(
    (entry): entry is [string, TSchema] => entry[0].endsWith('Schema') && IsSchema(entry[1]),
  );
}

describe('exported schemas', () => {
  it('are exported in a number that matches the areas', () => {
    expect(exportedSchemas().length).toBeGreaterThan(50);
  });

  it.each(exportedSchemas())('%s has a title and no $id', (_name, schema) => {
    const json = schema as { title?: unknown; $id?: unknown };
    expect(typeof json.title).toBe('string');
    expect(JSON.stringify(schema)).not.toContain('"$id"');
  });
});

/** Request parts are validated by Ajv; responses are only serialized, never validated. */
function isRequestPart(name: string): boolean {
  return /(Body|Params|Query|Input)(Schema)?$/.test(name);
}

describe('request schemas', () => {
  it.each(exportedSchemas().filter(([name]) => isRequestPart(name)))(
    '%s has no null branch',
    (_name, schema) => {
      // Fastify's default Ajv coerces types inside anyOf: it turns null into "" or 0 on the way
      // in, so a request schema must express "no value" by leaving the key out instead.
      expect(JSON.stringify(schema)).not.toContain('"type":"null"');
    },
  );
});

/**
 * Fastify with its default compilers: Ajv 8 with ajv-formats validates, fast-json-stringify
 * serializes. Compiling a schema for both shows it is usable in either place.
 */
async function fastifyWith(schema: TSchema, responses: readonly unknown[] = []) {
  const app = Fastify();
  app.post('/echo', { schema: { body: schema } }, (request) => request.body);
  app.get<{ Params: { index: string } }>(
    '/response/:index',
    { schema: { response: { 200: schema } } },
    (request) => responses[Number(request.params.index)],
  );
  await app.ready();
  return app;
}

describe('Fastify (Ajv + ajv-formats, fast-json-stringify)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each(exportedSchemas())(
    'compiles %s in strict mode without warnings',
    async (_name, schema) => {
      const warn = vi.spyOn(console, 'warn');
      const app = await fastifyWith(schema);
      await app.close();
      expect(warn).not.toHaveBeenCalled();
    },
  );

  describe.each(table.filter(([name]) => isRequestPart(name)))(
    '%s as a request',
    (_name, examples) => {
      it('accepts every valid example unchanged (defaults filled in)', async () => {
        const app = await fastifyWith(examples.schema);
        try {
          for (const value of examples.valid) {
            const response = await app.inject({
              method: 'POST',
              url: '/echo',
              payload: value as object,
            });
            expect(response.statusCode, response.body).toBe(200);
            expect(response.json()).toEqual(Value.Default(examples.schema, structuredClone(value)));
          }
        } finally {
          await app.close();
        }
      });

      it('refuses every invalid example except the documented leniencies', async () => {
        const app = await fastifyWith(examples.schema);
        try {
          for (const example of examples.invalid) {
            const response = await app.inject({
              method: 'POST',
              url: '/echo',
              payload: example.value as object,
            });
            const expected = example.fastify === undefined ? 400 : 200;
            expect(response.statusCode, `${example.why}: ${response.body}`).toBe(expected);
          }
        } finally {
          await app.close();
        }
      });
    },
  );

  describe.each(table.filter(([name]) => !isRequestPart(name)))(
    '%s as a response',
    (_name, examples) => {
      it('serializes every valid example unchanged', async () => {
        const app = await fastifyWith(examples.schema, examples.valid);
        try {
          for (const [index, value] of examples.valid.entries()) {
            const response = await app.inject({ method: 'GET', url: `/response/${index}` });
            expect(response.statusCode, response.body).toBe(200);
            expect(response.json()).toEqual(value);
          }
        } finally {
          await app.close();
        }
      });
    },
  );
});

describe('parseIdParam', () => {
  it.each([
    ['1', 1],
    ['007', 7],
    ['2147483647', 2_147_483_647],
    ['2147483648', undefined],
    ['99999999999999999999', undefined],
    ['', undefined],
    ['1e3', undefined],
    ['-1', undefined],
  ] as const)('%s -> %s', (value, expected) => {
    expect(parseIdParam(value)).toBe(expected);
  });
});
