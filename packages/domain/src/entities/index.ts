import type { EntitySchema } from '@mikro-orm/core';
import { BananaEntity } from './banana.entity.ts';
import {
  ConversationEntity,
  ConversationMemberEntity,
  MessageEntity,
} from './conversation.entity.ts';
import { EventEntity, EventInvitationEntity } from './event.entity.ts';
import { FoodSharePointEntity } from './food-share-point.entity.ts';
import { ForumPostEntity, ForumThreadEntity } from './forum.entity.ts';
import { MailboxEntity, MailboxMemberEntity, MailEntity } from './mailbox.entity.ts';
import { OAuthClientAuditLogEntity, OAuthClientEntity } from './oauth-client.entity.ts';
import { OAuthRevocationEntity } from './oauth-revocation.entity.ts';
import { PassportGenerationEntity } from './passport-generation.entity.ts';
import { PollEntity, PollVoteEntity } from './poll.entity.ts';
import {
  QuizAnswerEntity,
  QuizEntity,
  QuizQuestionEntity,
  QuizSessionEntity,
} from './quiz.entity.ts';
import { RegionAdminEntity, RegionMembershipEntity } from './region-membership.entity.ts';
import { RegionEntity, RegionOptionsEntity } from './region.entity.ts';
import { ReportEntity } from './report.entity.ts';
import { ResourceEntity } from './resource.entity.ts';
import { SearchIndexVersionEntity } from './search-index-version.entity.ts';
import { SigningKeyEntity } from './signing-key.entity.ts';
import { StoreChainEntity, StoreChainKamEntity } from './store-chain.entity.ts';
import { StoreLogEntryEntity } from './store-log-entry.entity.ts';
import { StoreEntity, StoreTeamMembershipEntity } from './store.entity.ts';
import { UploadEntity } from './upload.entity.ts';
import { BuddyEntity, UserEntity } from './user.entity.ts';
import { WorkGroupApplicationEntity } from './work-group-application.entity.ts';

export * from './banana.entity.ts';
export * from './conversation.entity.ts';
export * from './event.entity.ts';
export * from './food-share-point.entity.ts';
export * from './forum.entity.ts';
export * from './mailbox.entity.ts';
export * from './oauth-client.entity.ts';
export * from './search-index-version.entity.ts';
export * from './oauth-revocation.entity.ts';
export * from './passport-generation.entity.ts';
export * from './poll.entity.ts';
export * from './quiz.entity.ts';
export * from './region-membership.entity.ts';
export * from './region.entity.ts';
export * from './report.entity.ts';
export * from './resource.entity.ts';
export * from './signing-key.entity.ts';
export * from './store-chain.entity.ts';
export * from './store-log-entry.entity.ts';
export * from './store.entity.ts';
export * from './upload.entity.ts';
export * from './user.entity.ts';
export * from './work-group-application.entity.ts';

/** Every entity definition, for the ORM's `entities` option. */
// Annotated: the inferred tuple type is too large for declaration emit.
export const entities: readonly EntitySchema[] = [
  UserEntity,
  BuddyEntity,
  UploadEntity,
  RegionEntity,
  RegionOptionsEntity,
  RegionMembershipEntity,
  RegionAdminEntity,
  WorkGroupApplicationEntity,
  StoreChainEntity,
  StoreChainKamEntity,
  StoreEntity,
  StoreTeamMembershipEntity,
  StoreLogEntryEntity,
  ConversationEntity,
  ConversationMemberEntity,
  MessageEntity,
  ForumThreadEntity,
  ForumPostEntity,
  QuizEntity,
  QuizQuestionEntity,
  QuizAnswerEntity,
  QuizSessionEntity,
  ReportEntity,
  BananaEntity,
  ResourceEntity,
  FoodSharePointEntity,
  EventEntity,
  EventInvitationEntity,
  PollEntity,
  PollVoteEntity,
  MailboxEntity,
  MailboxMemberEntity,
  MailEntity,
  PassportGenerationEntity,
  OAuthClientEntity,
  OAuthClientAuditLogEntity,
  OAuthRevocationEntity,
  SigningKeyEntity,
  SearchIndexVersionEntity,
];
