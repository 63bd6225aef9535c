// Integer codes of the reference platform (docs/domain.md §1 and §3). Plain `as const`
// objects rather than TypeScript enums, so the source runs under Node's type stripping.

type ValueOf<T> = T[keyof T];

/** Roles compare as "at least": a higher role includes every lower one. */
export const Role = {
  Foodsharer: 0,
  Foodsaver: 1,
  StoreManager: 2,
  Ambassador: 3,
  Orga: 4,
} as const;
export type Role = ValueOf<typeof Role>;

export const RegionType = {
  Undefined: 0,
  City: 1,
  District: 2,
  Region: 3,
  FederalState: 5,
  Country: 6,
  WorkingGroup: 7,
  BigCity: 8,
  PartOfTown: 9,
} as const;
export type RegionType = ValueOf<typeof RegionType>;

/** Region types that have direct members and may hold stores. */
export const MEMBER_REGION_TYPES: readonly RegionType[] = [
  RegionType.City,
  RegionType.District,
  RegionType.Region,
  RegionType.PartOfTown,
];

export const WorkGroupFunction = {
  Welcome: 1,
  Voting: 2,
  FoodSharePoints: 3,
  StoresCoordination: 4,
  Report: 5,
  Mediation: 6,
  Arbitration: 7,
  FoodsaverManagement: 8,
  PublicRelations: 9,
  Moderation: 10,
  Board: 11,
  Election: 12,
} as const;
export type WorkGroupFunction = ValueOf<typeof WorkGroupFunction>;

/** Functions whose groups are not administered by their own admins alone. */
export const RESTRICTED_WORK_GROUP_FUNCTIONS: readonly WorkGroupFunction[] = [
  WorkGroupFunction.Report,
  WorkGroupFunction.Arbitration,
  WorkGroupFunction.FoodsaverManagement,
  WorkGroupFunction.Board,
];

export const ApplyType = { Nobody: 0, ByApplication: 2, Open: 3 } as const;
export type ApplyType = ValueOf<typeof ApplyType>;

/** Units with fixed ids on the reference platform; demo data seeds them with these ids. */
export const WellKnownUnit = {
  GlobalWorkingGroups: 392,
  StoreChainGroup: 332,
  ItSupport: 387,
  QuizGroup: 341,
  OAuthClientAdministration: 6704,
} as const;

export const StoreTeamStatus = { Applied: 0, Member: 1, Standby: 2, Invited: 3 } as const;
export type StoreTeamStatus = ValueOf<typeof StoreTeamStatus>;

export const CooperationStatus = {
  Unclear: 0,
  NoContact: 1,
  InNegotiation: 2,
  DoesNotWant: 4,
  Cooperating: 5,
  GivesToOtherCharity: 6,
  PermanentlyClosed: 7,
} as const;
export type CooperationStatus = ValueOf<typeof CooperationStatus>;

export const ChainStatus = {
  NotCooperating: 0,
  Waiting: 1,
  Cooperating: 2,
  InsufficientBranches: 3,
  Closed: 4,
} as const;
export type ChainStatus = ValueOf<typeof ChainStatus>;

export const StoreLogAction = {
  RequestToJoin: 1,
  RequestDeclined: 2,
  RequestApproved: 3,
  AddedWithoutRequest: 4,
  MovedToStandby: 5,
  MovedToTeam: 6,
  RemovedFromStore: 7,
  LeftStore: 8,
  AppointedStoreManager: 9,
  RemovedAsStoreManager: 10,
  SignedUpForSlot: 11,
  SignedOutOfSlot: 12,
  RemovedFromSlot: 13,
  SlotConfirmed: 14,
  DeletedFromWall: 15,
  RequestCancelled: 16,
  Invited: 17,
  InvitationWithdrawn: 18,
  InvitationAccepted: 19,
  InvitationDeclined: 20,
} as const;
export type StoreLogAction = ValueOf<typeof StoreLogAction>;

export const QuizSessionStatus = { Running: 0, Passed: 1, Failed: 2 } as const;
export type QuizSessionStatus = ValueOf<typeof QuizSessionStatus>;

/** Quizzes whose passing can be confirmed, and the role each one grants. */
export const CONFIRMABLE_QUIZ_ROLES: Readonly<Record<number, Role>> = {
  1: Role.Foodsaver,
  2: Role.StoreManager,
};

export const ReportStatusPresets = [
  'to_do',
  'in_progress',
  'handed_over',
  'mediation',
  'follow_up_user',
  'reminder',
  'completed',
  'deleted',
] as const;

export const ReportConsequence = ['warning', 'yellow_card', 'yellow_red_card', 'red_card'] as const;
export type ReportConsequence = (typeof ReportConsequence)[number];

/**
 * A report's status and consequence are stored and served as the reference platform's
 * translation keys, which its web client shows through its translations.
 */
export const reportStatusKey = (preset: (typeof ReportStatusPresets)[number]) =>
  `reports.statuses.${preset}` as const;
export const reportConsequenceKey = (consequence: ReportConsequence) =>
  `reports.consequences.${consequence}` as const;
export type ReportConsequenceKey = ReturnType<typeof reportConsequenceKey>;
export const ReportConsequenceKeys: readonly ReportConsequenceKey[] =
  ReportConsequence.map(reportConsequenceKey);

export const EventInvitationStatus = ['invited', 'accepted', 'maybe', 'wont_join'] as const;
export type EventInvitationStatus = (typeof EventInvitationStatus)[number];
