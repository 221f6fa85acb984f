// Ports of TCA's navigation reducer tests (Tests/ComposableArchitectureTests/Reducers/
// PresentationReducerTests, StackReducerTests, IfLetReducerTests, ForEachReducerTests,
// IfCaseLetReducerTests, and ScopeTests) that TCAPortTests.swift, TCANavigationTests.swift and
// NavigationTests.swift do not port already. Each feature is written as a TCA user moving it would
// write it with MiniRedux: `PresentationAction.dismiss` sent by the view becomes an action of the
// parent that sets the state to `nil`, `@Dependency(\.dismiss)` becomes `send.dismiss()`,
// `AlertState` plain state with a `scope` and no `child:`, `StackAction.push` an `append` in the
// parent, and a scheduler or clock a `TestClock`. Each test names the TCA test it ports; where
// MiniRedux differs as its documentation says, the TCA expectation is kept in `withKnownIssue`,
// named after the documented difference.

import Testing

@testable import MiniRedux

// MARK: - Shared features

/// A child with a timer on the clock it is given, that closes itself with `send.dismiss()`: the
/// `Child` of many of TCA's presentation and stack tests.
enum RPTicker {
  struct State: Equatable, Identifiable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable, Sendable { case close, increment, start, tick, never }
  static func reducer(_ clock: TestClock) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .close:
        return .run { send in await send.dismiss() }
      case .increment:
        state.count += 1
        return .none
      case .start:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.count += 1
        return .none
      case .never:
        return .run { _ in await untilCancelled() }
      }
    }
  }
}

/// A parent that presents one `RPTicker` as a sheet: `present(id)` shows one, `dismissChild` is
/// TCA's `.child(.dismiss)`, sent by the view.
enum RPSheet {
  struct State: Equatable { var child: RPTicker.State? }
  enum Action: Equatable, Sendable {
    case child(RPTicker.Action)
    case present(Int)
    case dismissChild
  }
  static func reducer(_ clock: TestClock) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .child: break
      case .present(let id): state.child = RPTicker.State(id: id)
      case .dismissChild: state.child = nil
      }
      return .none
    }
    .ifLet(\.child, action: Action.child, child: RPTicker.reducer(clock))
  }
}

/// Runs reducers one after another on each action, as a TCA `body` lists them.
private func combine<State, Action>(_ reducers: Reducer<State, Action>...) -> Reducer<State, Action>
{
  { state, action in .merge(reducers.map { $0(&state, action) }) }
}

// MARK: - PresentationReducerTests

@MainActor
@Suite("TCA port: PresentationReducerTests")
struct TCAReducerPortPresentationTests {
  @Test("the parent dismisses the child (testPresentation_parentDismissal, _NilOut)")
  func parentDismissal() async throws {
    let store = TestStore(initialState: RPSheet.State(), RPSheet.reducer(TestClock()))
    try await store.send(.present(0)) { $0.child = RPTicker.State() }
    try await store.send(.child(.increment)) { $0.child?.count = 1 }
    try await store.send(.dismissChild) { $0.child = nil }
    try await store.finish()
  }

  @Test("the child dismisses itself; the parent is told first (testPresentation_childDismissal)")
  func childDismissal() async throws {
    // TCA's parent reads the child's count in `.child(.dismiss)`. MiniRedux sends the parent no
    // action for a dismissal (MigratingFromTCA: PresentationAction), so the child tells it with a
    // delegate action first, as the docs show.
    enum Child {
      struct State: Equatable { var count = 0 }
      enum Action: Equatable, Sendable { case close, decrement, closing(Int) }
    }
    struct State: Equatable {
      var lastCount: Int?
      var child: Child.State?
    }
    enum Action: Equatable, Sendable { case child(Child.Action), present }
    let reducer = Reduce<State, Action> { state, action in
      switch action {
      case .child(.closing(let count)): state.lastCount = count
      case .child: break
      case .present: state.child = Child.State()
      }
      return .none
    }
    .ifLet(\.child, action: Action.child) { (state: inout Child.State, action: Child.Action) in
      switch action {
      case .close:
        return .run { [count = state.count] send in
          await send(.closing(count))
          await send.dismiss()
        }
      case .decrement:
        state.count -= 1
        return .none
      case .closing:
        return .none
      }
    }
    let store = TestStore(initialState: State(), reducer)
    store.timeout = patience
    try await store.send(.present) { $0.child = Child.State() }
    try await store.send(.child(.decrement)) { $0.child?.count = -1 }
    try await store.send(.child(.close))
    try await store.receive(.child(.closing(-1))) { $0.lastCount = -1 }
    try await store.receiveDismiss { $0.child = nil }
    try await store.finish()
  }

  @Test("the parent's dismissal ends the child's timer (testPresentation_parentDismissal_effects)")
  func parentDismissalEffects() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: RPSheet.State(), RPSheet.reducer(clock))
    store.timeout = patience
    try await store.send(.present(0)) { $0.child = RPTicker.State() }
    try await store.send(.child(.start))
    await clock.advance(by: .seconds(2))
    try await store.receive(.child(.tick)) { $0.child?.count = 1 }
    try await store.receive(.child(.tick)) { $0.child?.count = 2 }
    try await store.send(.dismissChild) { $0.child = nil }
    await clock.advance(by: .seconds(2))
    try await store.finish()
  }

  @Test("the child's own dismissal ends its timer (testPresentation_childDismissal_effects)")
  func childDismissalEffects() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: RPSheet.State(), RPSheet.reducer(clock))
    store.timeout = patience
    try await store.send(.present(0)) { $0.child = RPTicker.State() }
    try await store.send(.child(.start))
    await clock.advance(by: .seconds(2))
    try await store.receive(.child(.tick)) { $0.child?.count = 1 }
    try await store.receive(.child(.tick)) { $0.child?.count = 2 }
    try await store.send(.child(.close))
    try await store.receiveDismiss { $0.child = nil }
    await clock.advance(by: .seconds(2))
    try await store.finish()
  }

  @Test("a child of another id replaces it, ending its timer (identifiableDismissal_effects)")
  func identifiableDismissalEffects() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: RPSheet.State(), RPSheet.reducer(clock))
    store.timeout = patience
    try await store.send(.present(0)) { $0.child = RPTicker.State(id: 0) }
    try await store.send(.child(.start))
    await clock.advance(by: .seconds(2))
    try await store.receive(.child(.tick)) { $0.child?.count = 1 }
    try await store.receive(.child(.tick)) { $0.child?.count = 2 }
    try await store.send(.present(1)) { $0.child = RPTicker.State(id: 1) }
    await clock.advance(by: .seconds(2))
    try await store.send(.dismissChild) { $0.child = nil }
    try await store.finish()
  }

  @Test("a child left presented, with no effects, ends the test (testPresentation_LeavePresented)")
  func leavePresented() async throws {
    let store = TestStore(initialState: RPSheet.State(), RPSheet.reducer(TestClock()))
    try await store.send(.present(0)) { $0.child = RPTicker.State() }
    try await store.finish()
  }

  @Test("a child left presented with an effect fails the test (leaveChildPresented_WithLongLiving)")
  func leavePresentedWithLongLivingEffect() async throws {
    try await withKnownIssue {
      let store = TestStore(initialState: RPSheet.State(), RPSheet.reducer(TestClock()))
      store.timeout = .milliseconds(100)
      try await store.send(.present(0)) { $0.child = RPTicker.State() }
      try await store.send(.child(.never))
      try await store.finish()
    } matching: {
      $0.description.contains("not accounted for")
    }
  }

  struct Alerting: Equatable {
    var alert: String?  // TCA's `AlertState`: the view builds the alert.
    var isDeleted = false
  }
  enum AlertingAction: Equatable, Sendable {
    case alert(AlertButton), presentAlert, alertDismissed
    enum AlertButton: Equatable, Sendable { case delete }
  }
  static var alerting: Reduce<Alerting, AlertingAction> {
    Reduce<Alerting, AlertingAction> { state, action in
      switch action {
      case .alert(.delete): state.isDeleted = true
      case .presentAlert: state.alert = "Uh oh!"
      case .alertDismissed: state.alert = nil
      }
      return .none
    }
    // TCA: `.ifLet(\.$alert, action: \.alert) {}`; an alert closes on any of its actions.
    .ifLet(\.alert, action: AlertingAction.alert) { _, _ in .dismiss }
  }

  @Test("an alert is presented, then dismissed (testInertPresentation, _dismissal)")
  func inertPresentation() async throws {
    let store = TestStore(initialState: Alerting(), Self.alerting)
    try await store.send(.presentAlert) { $0.alert = "Uh oh!" }
    try await store.send(.alertDismissed) { $0.alert = nil }
    try await store.finish()
  }

  @Test(
    "an alert's button closes it; the parent hears it (testInertPresentation_automaticDismissal)")
  func inertAutomaticDismissal() async throws {
    let store = TestStore(initialState: Alerting(), Self.alerting)
    try await store.send(.presentAlert) { $0.alert = "Uh oh!" }
    try await store.send(.alert(.delete)) {
      $0.alert = nil
      $0.isDeleted = true
    }
    try await store.finish()
  }

  @Test("a child presented from the start dismisses itself (hydratedDestination_childDismissal)")
  func hydratedChildDismissal() async throws {
    let store = TestStore(
      initialState: RPSheet.State(child: RPTicker.State()), RPSheet.reducer(TestClock()))
    store.timeout = patience
    try await store.send(.child(.close))
    try await store.receiveDismiss { $0.child = nil }
    try await store.finish()
  }

  struct Container: Equatable {
    struct Inner: Equatable { var child: RPTicker.State? }
    var container = Inner()
  }
  enum ContainerAction: Equatable, Sendable {
    case container(InnerAction)
    enum InnerAction: Equatable, Sendable { case openChild, child(RPTicker.Action) }
  }

  @Test(
    "a child of a scoped container dismisses itself, twice (rehydratedDestination_childDismissal)")
  func rehydratedChildDismissal() async throws {
    let inner = Reduce<Container.Inner, ContainerAction.InnerAction> { _, _ in .none }
      .ifLet(
        \.child, action: ContainerAction.InnerAction.child, child: RPTicker.reducer(TestClock()))
    let reducer = Reduce<Container, ContainerAction> { state, action in
      if action == .container(.openChild) { state.container.child = RPTicker.State() }
      return .none
    }
    .scope(\.container, action: ContainerAction.container, child: inner)
    let store = TestStore(initialState: Container(), reducer)
    store.timeout = patience
    for _ in 1...2 {
      try await store.send(.container(.openChild)) { $0.container.child = RPTicker.State() }
      try await store.send(.container(.child(.close)))
      try await store.receiveDismiss { $0.container.child = nil }
    }
    try await store.finish()
  }

  enum Destination: Equatable {
    case alert(String)
    case child(RPTicker.State)
  }
  enum DestinationAction: Equatable, Sendable {
    case alert(AlertingAction.AlertButton)
    case child(RPTicker.Action)
  }
  struct Destined: Equatable {
    var destination: Destination?
    var isDeleted = false
  }
  enum DestinedAction: Equatable, Sendable {
    case destination(DestinationAction), presentAlert, presentChild(id: Int)
  }
  static func destined(_ clock: TestClock) -> Reduce<Destined, DestinedAction> {
    Reduce<Destined, DestinedAction> { state, action in
      switch action {
      case .destination(.alert(.delete)): state.isDeleted = true
      case .destination: break
      case .presentAlert: state.destination = .alert("Uh oh!")
      case .presentChild(let id): state.destination = .child(RPTicker.State(id: id))
      }
      return .none
    }
    .ifLet(
      \.destination, action: DestinedAction.destination,
      child: Reduce<Destination, DestinationAction> { _, _ in .none }
        .scope(Destination.alert, action: DestinationAction.alert)
        .scope(Destination.child, action: DestinationAction.child, child: RPTicker.reducer(clock)))
  }

  @Test("an enum destination: a child, the same id again, then an alert (testEnumPresentation)")
  func enumPresentation() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Destined(), Self.destined(clock))
    store.timeout = patience
    try await store.send(.presentChild(id: 0)) { $0.destination = .child(RPTicker.State(id: 0)) }
    try await store.send(.destination(.child(.start)))
    await clock.advance(by: .seconds(2))
    try await store.receive(.destination(.child(.tick))) {
      $0.destination[case: Destination.child]?.count = 1
    }
    try await store.receive(.destination(.child(.tick))) {
      $0.destination[case: Destination.child]?.count = 2
    }
    try await store.send(.destination(.child(.close)))
    try await store.receiveDismiss { $0.destination = nil }

    try await store.send(.presentChild(id: 1)) { $0.destination = .child(RPTicker.State(id: 1)) }
    await clock.advance(by: .seconds(2))
    try await store.send(.destination(.child(.start)))
    await clock.advance(by: .seconds(2))
    try await store.receive(.destination(.child(.tick))) {
      $0.destination[case: Destination.child]?.count = 1
    }
    try await store.receive(.destination(.child(.tick))) {
      $0.destination[case: Destination.child]?.count = 2
    }
    // The same case with the same id is the same child: its timer goes on, from a count of 0.
    try await store.send(.presentChild(id: 1)) {
      $0.destination[case: Destination.child]?.count = 0
    }
    await clock.advance(by: .seconds(2))
    try await store.receive(.destination(.child(.tick))) {
      $0.destination[case: Destination.child]?.count = 1
    }
    try await store.receive(.destination(.child(.tick))) {
      $0.destination[case: Destination.child]?.count = 2
    }
    try await store.send(.presentAlert) { $0.destination = .alert("Uh oh!") }
    try await store.send(.destination(.alert(.delete))) {
      $0.destination = nil
      $0.isDeleted = true
    }
    await clock.advance(by: .seconds(2))
    try await store.finish()
  }

  @Test("an action for the child while the alert shows is dropped (leaveAlertPresentedForNonAlert)")
  func leaveAlertPresentedForNonAlertActions() async throws {
    let store = TestStore(initialState: Destined(), Self.destined(TestClock()))
    try await store.send(.presentAlert) { $0.destination = .alert("Uh oh!") }
    try await withKnownIssue {
      try await store.send(.destination(.child(.increment)))
    } matching: {
      $0.description.contains("dropped")
    }
    #expect(store.state.destination == .alert("Uh oh!"))
    try await store.finish()
  }

  @Test("a child's .cancel(id:) stops its own effect (testNavigation_cancelID_childCancellation)")
  func childCancellation() async throws {
    enum Child {
      struct State: Equatable {}
      enum Action: Equatable, Sendable { case start, stop }
    }
    struct State: Equatable { var child: Child.State? }
    enum Action: Equatable, Sendable { case child(Child.Action), present }
    let reducer = Reduce<State, Action> { state, action in
      if action == .present { state.child = Child.State() }
      return .none
    }
    .ifLet(\.child, action: Action.child) { (_: inout Child.State, action: Child.Action) in
      switch action {
      case .start: return .run { _ in await untilCancelled() }.cancellable(id: 42)
      case .stop: return .cancel(id: 42)
      }
    }
    let store = TestStore(initialState: State(), reducer)
    let presentation = try await store.send(.present) { $0.child = Child.State() }
    try await store.send(.child(.start))
    try await store.send(.child(.stop))
    presentation.cancel()
    try await store.finish()
  }

  struct Nest: Equatable {
    struct Child: Equatable { var grandchild: RPTicker.State? }
    var child: Child?
  }
  enum NestAction: Equatable, Sendable {
    case child(ChildAction), present, stop, dismissGrandchild
    enum ChildAction: Equatable, Sendable {
      case grandchild(RPTicker.Action), presentGrandchild, start
    }
  }
  enum ChildID: Hashable { case effect }
  enum GrandchildID: Hashable { case effect }
  static func nest(_ clock: TestClock) -> Reduce<Nest, NestAction> {
    let child = Reduce<Nest.Child, NestAction.ChildAction> { state, action in
      switch action {
      case .grandchild: return .none
      case .presentGrandchild:
        state.grandchild = RPTicker.State()
        return .none
      case .start:
        return .run { _ in await untilCancelled() }.cancellable(id: ChildID.effect)
      }
    }
    .ifLet(\.grandchild, action: NestAction.ChildAction.grandchild) { state, action in
      RPTicker.reducer(clock)(&state, action).cancellable(id: GrandchildID.effect)
    }
    return Reduce<Nest, NestAction> { state, action in
      switch action {
      case .child: return .none
      case .present:
        state.child = Nest.Child()
        return .none
      case .stop:
        return .merge(.cancel(id: ChildID.effect), .cancel(id: GrandchildID.effect))
      case .dismissGrandchild:
        // TCA: `.send(.child(.presented(.grandchild(.dismiss))))`.
        state.child?.grandchild = nil
        return .none
      }
    }
    .ifLet(\.child, action: NestAction.child, child: child)
  }

  @Test("a parent's .cancel(id:) reaches child and grandchild (cancelID_parentCancellation)")
  func parentCancellation() async throws {
    let store = TestStore(initialState: Nest(), Self.nest(TestClock()))
    store.timeout = patience
    try await store.send(.present) { $0.child = Nest.Child() }
    try await store.send(.child(.presentGrandchild)) { $0.child?.grandchild = RPTicker.State() }
    try await store.send(.child(.start))
    try await store.send(.child(.grandchild(.never)))
    try await store.send(.stop)
    try await store.finish()
  }

  @Test("the parent dismisses the grandchild, ending its effect (cancelID_parentDismissGrandchild)")
  func parentDismissGrandchild() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Nest(), Self.nest(clock))
    store.timeout = patience
    try await store.send(.present) { $0.child = Nest.Child() }
    try await store.send(.child(.presentGrandchild)) { $0.child?.grandchild = RPTicker.State() }
    try await store.send(.child(.grandchild(.start)))
    await clock.advance(by: .seconds(1))
    try await store.receive(.child(.grandchild(.tick))) { $0.child?.grandchild?.count = 1 }
    try await store.send(.dismissGrandchild) { $0.child?.grandchild = nil }
    await clock.advance(by: .seconds(1))
    try await store.send(.child(.presentGrandchild)) { $0.child?.grandchild = RPTicker.State() }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  struct Twins: Equatable {
    var child1: RPTicker.State?
    var child2: RPTicker.State?
  }
  enum TwinsAction: Equatable, Sendable {
    case child1(RPTicker.Action), child2(RPTicker.Action), present(Int, Int), stop(Int)
  }
  enum TwinID: Hashable { case effect }

  /// Two sheets of one feature, whose timer runs under `TwinID.effect`; `stop(n)` is child n's
  /// `.cancel(id:)`, sent from its reducer.
  static func twins(_ clock: TestClock) -> Reduce<Twins, TwinsAction> {
    let child: Reducer<RPTicker.State, RPTicker.Action> = { state, action in
      switch action {
      case .start: return RPTicker.reducer(clock)(&state, action).cancellable(id: TwinID.effect)
      case .close: return .cancel(id: TwinID.effect)  // This test's stop button.
      default: return RPTicker.reducer(clock)(&state, action)
      }
    }
    return Reduce<Twins, TwinsAction> { state, action in
      if case .present(let id1, let id2) = action {
        state.child1 = RPTicker.State(id: id1)
        state.child2 = RPTicker.State(id: id2)
      }
      return .none
    }
    .ifLet(\.child1, action: TwinsAction.child1, child: child)
    .ifLet(\.child2, action: TwinsAction.child2, child: child)
  }

  @Test(
    "a child cannot cancel its sibling's effect (childCannotCancelSibling, IdentifiableSibling)",
    arguments: [(0, 0), (0, 1)])
  func childCannotCancelSibling(ids: (Int, Int)) async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Twins(), Self.twins(clock))
    store.timeout = patience
    try await store.send(.present(ids.0, ids.1)) {
      $0.child1 = RPTicker.State(id: ids.0)
      $0.child2 = RPTicker.State(id: ids.1)
    }
    try await store.send(.child1(.start))
    await clock.advance(by: .seconds(1))
    try await store.receive(.child1(.tick)) { $0.child1?.count = 1 }
    try await store.send(.child2(.start))
    await clock.advance(by: .seconds(1))
    try await store.receive(.child1(.tick)) { $0.child1?.count = 2 }
    try await store.receive(.child2(.tick)) { $0.child2?.count = 1 }
    try await store.send(.child1(.close))
    await clock.advance(by: .seconds(1))
    try await store.receive(.child2(.tick)) { $0.child2?.count = 2 }
    try await store.send(.child2(.close))
    await clock.advance(by: .seconds(1))
    await clock.run()
    try await store.finish()
  }

  @Test("an action for a child that is not there fails the step (RuntimeWarn_NilChild_SendChild)")
  func nilChildSendChildAction() async throws {
    let store = TestStore(initialState: RPSheet.State(), RPSheet.reducer(TestClock()))
    try await withKnownIssue {
      try await store.send(.child(.increment))
    } matching: {
      $0.description.contains("dropped")
    }
    try await store.finish()
  }

  @Test("the parent nils out a child with a long-living effect (parentNilsOutChildWithLongLiving)")
  func parentNilsOutChildWithLongLivingEffect() async throws {
    enum Child {
      struct State: Equatable { var count = 0 }
      enum Action: Equatable, Sendable { case dismiss, dismissMe, task }
    }
    struct State: Equatable { var child: Child.State? }
    enum Action: Equatable, Sendable { case child(Child.Action), present }
    let reducer = Reduce<State, Action> { state, action in
      switch action {
      case .child(.dismissMe): state.child = nil
      case .child: break
      case .present: state.child = Child.State()
      }
      return .none
    }
    .ifLet(\.child, action: Action.child) { (_: inout Child.State, action: Child.Action) in
      switch action {
      case .dismiss: return .send(.dismissMe)
      case .dismissMe: return .none
      case .task: return .run { _ in await untilCancelled() }
      }
    }
    let store = TestStore(initialState: State(), reducer)
    store.timeout = patience
    try await store.send(.present) { $0.child = Child.State() }
    try await store.send(.child(.task))
    try await store.send(.child(.dismiss))
    try await store.receive(.child(.dismissMe)) { $0.child = nil }
    try await store.finish()
  }

  enum Choice: Equatable {
    case alert(String)
    case dialog(String)
  }
  enum ChoiceAction: Equatable, Sendable {
    case alert(Button), dialog(Button)
    enum Button: Equatable, Sendable { case showAlert, showDialog }
  }
  struct Chooser: Equatable { var destination: Choice? }
  enum ChooserAction: Equatable, Sendable {
    case destination(ChoiceAction), showAlert, showDialog, dismiss
  }

  @Test("an alert's button shows a dialog, and the dialog's an alert (testAlertThenDialog)")
  func alertThenDialog() async throws {
    let reducer = Reduce<Chooser, ChooserAction> { state, action in
      switch action {
      case .destination(.alert(.showDialog)): state.destination = .dialog("Hello!")
      case .destination(.dialog(.showAlert)): state.destination = .alert("Hello!")
      case .destination: break
      case .showAlert: state.destination = .alert("Choose")
      case .showDialog: state.destination = .dialog("Choose")
      case .dismiss: state.destination = nil
      }
      return .none
    }
    .ifLet(
      \.destination, action: ChooserAction.destination,
      child: Reduce<Choice, ChoiceAction> { _, _ in .none }
        .scope(Choice.alert, action: ChoiceAction.alert)
        .scope(Choice.dialog, action: ChoiceAction.dialog))
    let store = TestStore(initialState: Chooser(), reducer)
    try await store.send(.showAlert) { $0.destination = .alert("Choose") }
    try await store.send(.destination(.alert(.showDialog))) { $0.destination = .dialog("Hello!") }
    try await store.send(.dismiss) { $0.destination = nil }
    try await store.send(.showDialog) { $0.destination = .dialog("Choose") }
    try await store.send(.destination(.dialog(.showAlert))) { $0.destination = .alert("Hello!") }
    try await store.send(.dismiss) { $0.destination = nil }
    try await store.finish()
  }

  @Test(
    "a reducer before or after the ifLet nils the child; its effect ends (testOuterCancellation)")
  func outerCancellation() async throws {
    enum Action: Equatable, Sendable { case child(RPTicker.Action), tapAfter, tapBefore, tapChild }
    let before: Reducer<RPSheet.State, Action> = { state, action in
      if action == .tapBefore { state.child = nil }
      return .none
    }
    let embedding = Reduce<RPSheet.State, Action> { state, action in
      if action == .tapChild { state.child = RPTicker.State() }
      return .none
    }
    .ifLet(\.child, action: Action.child, child: RPTicker.reducer(TestClock()))
    let after: Reducer<RPSheet.State, Action> = { state, action in
      if action == .tapAfter { state.child = nil }
      return .none
    }
    let store = TestStore(initialState: RPSheet.State(), combine(before, embedding.reduce, after))
    store.timeout = patience
    try await store.send(.tapChild) { $0.child = RPTicker.State() }
    try await store.send(.child(.never))
    try await store.send(.tapBefore) { $0.child = nil }
    try await store.send(.tapChild) { $0.child = RPTicker.State() }
    try await store.send(.child(.never))
    try await store.send(.tapAfter) { $0.child = nil }
    // TCA needs another action through the `ifLet` to cancel the child's effect; MiniRedux ends it
    // in the `send` that nils the child, whoever does (Guarantees: Child features).
    try await store.finish()
    try await store.send(.tapAfter)
    try await store.finish()
  }

  /// TCA's `NestedDismissFeature`: a feature that presents itself, as deep as it likes.
  struct Nested: Equatable {
    private var children: [Nested] = []  // A stored optional of itself is not allowed.
    var child: Nested? {
      get { children.first }
      set { children = newValue.map { [$0] } ?? [] }
    }
  }
  indirect enum NestedAction: Equatable, Sendable {
    case child(NestedAction), dismissButtonTapped, presentButtonTapped, listen
  }
  static func nested(_ state: inout Nested, _ action: NestedAction) -> Effect<NestedAction> {
    Reduce<Nested, NestedAction> { state, action in
      switch action {
      case .child: return .none
      case .dismissButtonTapped: return .run { send in await send.dismiss() }
      case .listen: return .run { _ in await untilCancelled() }
      case .presentButtonTapped:
        state.child = Nested()
        return .none
      }
    }
    .ifLet(\.child, action: NestedAction.child, child: nested)
    .reduce(&state, action)
  }

  @Test("a feature presented inside itself dismisses only itself (testNestedDismiss)")
  func nestedDismiss() async throws {
    let store = TestStore(initialState: Nested(), Self.nested)
    store.timeout = patience
    try await store.send(.presentButtonTapped) { $0.child = Nested() }
    try await store.send(.child(.presentButtonTapped)) { $0.child?.child = Nested() }
    try await store.send(.child(.child(.dismissButtonTapped)))
    try await store.receiveDismiss { $0.child?.child = nil }
    try await store.finish()
  }
}

// MARK: - StackReducerTests

enum RPStack {
  struct State: Equatable { var path = StackState<RPTicker.State>() }
  enum Action: Equatable, Sendable {
    case path(id: Int, RPTicker.Action)
    case push(RPTicker.State)
    case popFrom(Int)
  }
  static func reducer(_ clock: TestClock) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .path: break
      case .push(let screen): state.path.append(screen)
      case .popFrom(let id): state.path.pop(from: id)
      }
      return .none
    }
    .forEach(\.path, action: Action.path, child: RPTicker.reducer(clock))
  }
}

@MainActor
@Suite("TCA port: StackReducerTests")
struct TCAReducerPortStackTests {
  @Test("push, then pop from the parent (testPresent, testDismissFromParent)")
  func presentAndDismissFromParent() async throws {
    let store = TestStore(initialState: RPStack.State(), RPStack.reducer(TestClock()))
    try await store.send(.push(RPTicker.State(count: 1))) {
      $0.path.append(RPTicker.State(count: 1))
    }
    try await store.send(.path(id: 0, .increment)) { $0.path[id: 0]?.count = 2 }
    try await store.send(.popFrom(0)) { $0.path = StackState() }
    try await store.finish()
  }

  @Test("a screen dismisses itself (testDismissFromChild)")
  func dismissFromChild() async throws {
    let store = TestStore(initialState: RPStack.State(), RPStack.reducer(TestClock()))
    store.timeout = patience
    try await store.send(.push(RPTicker.State())) { $0.path.append(RPTicker.State()) }
    try await store.send(.path(id: 0, .close))
    try await store.receiveDismiss { $0.path[id: 0] = nil }
    try await store.finish()
  }

  @Test("receiving another action than the dismissal fails (testDismissReceiveWrongAction)")
  func dismissReceiveWrongAction() async throws {
    let store = TestStore(initialState: RPStack.State(), RPStack.reducer(TestClock()))
    store.timeout = .milliseconds(200)
    try await store.send(.push(RPTicker.State())) { $0.path.append(RPTicker.State()) }
    try await store.send(.path(id: 0, .close))
    await withKnownIssue {
      try await store.receive(.path(id: 0, .tick))
    }
    // As in TCA, the receive that failed took the dismissal: nothing is left to receive.
    try await store.finish()
  }

  @Test("a screen in the middle dismisses itself and those above it (DismissFromIntermediateChild)")
  func dismissFromIntermediateChild() async throws {
    let clock = TestClock()
    let closing: Reducer<RPTicker.State, RPTicker.Action> = { state, action in
      guard action == .start else { return RPTicker.reducer(clock)(&state, action) }
      return .run { [count = state.count] send in
        try await clock.sleep(for: .seconds(count))
        await send.dismiss()
      }
    }
    let reducer = Reduce<RPStack.State, RPStack.Action> { state, action in
      if case .push(let screen) = action { state.path.append(screen) }
      if case .popFrom(let id) = action { state.path.pop(from: id) }
      return .none
    }
    .forEach(\.path, action: RPStack.Action.path, child: closing)
    let store = TestStore(initialState: RPStack.State(), reducer)
    store.timeout = patience
    for (id, seconds) in [2, 1, 2].enumerated() {
      try await store.send(.push(RPTicker.State(count: seconds))) {
        $0.path.append(RPTicker.State(count: seconds))
      }
      try await store.send(.path(id: id, .start))
    }
    await clock.advance(by: .seconds(1))
    try await store.receiveDismiss { $0.path.removeLast(2) }
    try await store.send(.popFrom(0)) { $0.path = StackState() }
    await clock.run()
    try await store.finish()
  }

  @Test("a screen of the initial stack dismisses itself (testDismissFromDeepLinkedChild)")
  func dismissFromDeepLinkedChild() async throws {
    let store = TestStore(
      initialState: RPStack.State(path: [RPTicker.State()]), RPStack.reducer(TestClock()))
    store.timeout = patience
    try await store.send(.path(id: 0, .close))
    try await store.receiveDismiss { $0.path.removeAll() }
    try await store.finish()
  }

  enum Path {
    enum State: Equatable {
      case child1(RPTicker.State)
      case child2(RPTicker.State)
    }
    enum Action: Equatable, Sendable { case child1(RPTicker.Action), child2(RPTicker.Action) }
  }
  struct Enums: Equatable { var path = StackState<Path.State>() }
  enum EnumsAction: Equatable, Sendable {
    case path(id: Int, Path.Action), pushChild1, pushChild2, popFrom(Int)
  }

  @Test("screens of two kinds; popping the first ends both's effects (RPStack.testEnumChild)")
  func enumChild() async throws {
    let clock = TestClock()
    let reducer = Reduce<Enums, EnumsAction> { state, action in
      switch action {
      case .path: break
      case .pushChild1: state.path.append(.child1(RPTicker.State()))
      case .pushChild2: state.path.append(.child2(RPTicker.State()))
      case .popFrom(let id): state.path.pop(from: id)
      }
      return .none
    }
    .forEach(
      \.path, action: EnumsAction.path,
      child: Reduce<Path.State, Path.Action> { _, _ in .none }
        .scope(Path.State.child1, action: Path.Action.child1, child: RPTicker.reducer(clock))
        .scope(Path.State.child2, action: Path.Action.child2, child: RPTicker.reducer(clock)))
    let store = TestStore(initialState: Enums(), reducer)
    store.timeout = patience
    try await store.send(.pushChild1) { $0.path.append(.child1(RPTicker.State())) }
    try await store.send(.path(id: 0, .child1(.never)))
    try await store.send(.pushChild2) { $0.path.append(.child2(RPTicker.State())) }
    try await store.send(.path(id: 1, .child2(.never)))
    try await store.send(.popFrom(0)) { $0.path.removeAll() }
    try await store.finish()
  }

  @Test(
    "an action for an id not in the stack fails the step (testSendActionWithIDThatDoesNotExist)")
  func sendActionWithIDThatDoesNotExist() async throws {
    let store = TestStore(
      initialState: RPStack.State(path: [RPTicker.State()]), RPStack.reducer(TestClock()))
    try await withKnownIssue {
      try await store.send(.path(id: 999, .increment))
    } matching: {
      $0.description.contains("dropped")
    }
    try await store.finish()
  }

  @Test("popping from an id not in the stack changes nothing (testPopIDThatDoesNotExist)")
  func popIDThatDoesNotExist() async throws {
    // TCA fails a `StackAction.popFrom` for a missing id. MiniRedux pops by setting the state, and
    // `pop(from:)` with an id not there is a no-op, as `path[id:] = nil` is (Guarantees).
    let store = TestStore(
      initialState: RPStack.State(path: [RPTicker.State()]), RPStack.reducer(TestClock()))
    try await store.send(.popFrom(999))
    #expect(store.state.path.ids == [0])
    try await store.finish()
  }

  @Test("a screen's effect left running fails the test (testChildWithInFlightEffect)")
  func childWithInFlightEffect() async throws {
    try await withKnownIssue {
      let store = TestStore(
        initialState: RPStack.State(path: [RPTicker.State()]), RPStack.reducer(TestClock()))
      store.timeout = .milliseconds(100)
      try await store.send(.path(id: 0, .never))
      try await store.finish()
    } matching: {
      $0.description.contains("not accounted for")
    }
  }

  @Test("two screens' effects answer each its own screen (testMultipleChildEffects)")
  func multipleChildEffects() async throws {
    let clock = TestClock()
    let child: Reducer<RPTicker.State, RPTicker.Action> = { state, action in
      guard action == .start else { return RPTicker.reducer(clock)(&state, action) }
      return .run { [count = state.count] send in
        try await clock.sleep(for: .seconds(count))
        await send(.increment)
      }
    }
    let reducer = Reduce<RPStack.State, RPStack.Action> { _, _ in .none }
      .forEach(\.path, action: RPStack.Action.path, child: child)
    let store = TestStore(
      initialState: RPStack.State(path: [RPTicker.State(count: 1), RPTicker.State(count: 2)]),
      reducer)
    store.timeout = patience
    try await store.send(.path(id: 0, .start))
    try await store.send(.path(id: 1, .start))
    await clock.advance(by: .seconds(1))
    try await store.receive(.path(id: 0, .increment)) { $0.path[id: 0]?.count = 2 }
    await clock.advance(by: .seconds(1))
    try await store.receive(.path(id: 1, .increment)) { $0.path[id: 1]?.count = 3 }
    try await store.finish()
  }

  @Test("popping a screen ends its effect (testChildEffectCancellation)")
  func childEffectCancellation() async throws {
    let store = TestStore(
      initialState: RPStack.State(path: [RPTicker.State()]), RPStack.reducer(TestClock()))
    store.timeout = patience
    try await store.send(.path(id: 0, .never))
    try await store.send(.popFrom(0)) { $0.path[id: 0] = nil }
    try await store.finish()
  }

  @Test("screens pushed in a step and its .send, and ids asserted in closures (CopiesIDGenerator)")
  func sendCopiesStackElementIDGenerator() async throws {
    struct State: Equatable { var path = StackState<Int>() }
    // TCA's screens have no actions (`Never`); one that does nothing stands for it.
    enum Action: Equatable, Sendable { case buttonTapped, path(id: Int, Screen), response }
    enum Screen: Equatable, Sendable { case none }
    let reducer = Reduce<State, Action> { state, action in
      switch action {
      case .buttonTapped:
        state.path.append(1)
        return .send(.response)
      case .path: return .none
      case .response:
        state.path.append(2)
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { _, _ in .none }
    /// TCA's `stackElementID.next()`, three times in the closure: stacks made there take ids too.
    func drawIDs() {
      var scratch = StackState<Int>()
      scratch.append(contentsOf: [0, 0, 0])
    }
    let store = TestStore(initialState: State(), reducer)
    try await store.send(.buttonTapped) {
      $0.path.append(1)
      drawIDs()
    }
    try await store.receive(.response) {
      $0.path.append(2)
      drawIDs()
    }
    #expect(store.state.path.ids == [0, 1])
    try await store.send(.buttonTapped) { $0.path.append(1) }
    try await store.receive(.response) { $0.path.append(2) }
    #expect(store.state.path.ids == [0, 1, 2, 3])
    try await store.finish()
  }

  @Test("a reducer before or after the forEach pops the screens (RPStack.testOuterCancellation)")
  func outerCancellation() async throws {
    let before: Reducer<RPStack.State, RPStack.Action> = { state, action in
      if action == .popFrom(-1) { state.path.removeAll() }  // TCA's `tapBefore`.
      return .none
    }
    let after: Reducer<RPStack.State, RPStack.Action> = { state, action in
      if action == .popFrom(-2) { state.path.removeAll() }  // TCA's `tapAfter`.
      return .none
    }
    let store = TestStore(
      initialState: RPStack.State(),
      combine(before, RPStack.reducer(TestClock()).reduce, after))
    store.timeout = patience
    try await store.send(.push(RPTicker.State())) { $0.path.append(RPTicker.State()) }
    try await store.send(.path(id: 0, .never))
    try await store.send(.popFrom(-1)) { $0.path.removeAll() }
    try await store.send(.push(RPTicker.State())) { $0.path.append(RPTicker.State()) }
    try await store.send(.path(id: 1, .never))
    try await store.send(.popFrom(-2)) { $0.path.removeAll() }
    try await store.finish()
  }
}

// MARK: - IfLetReducerTests, ForEachReducerTests

@MainActor
@Suite("TCA port: IfLetReducerTests, ForEachReducerTests")
struct TCAReducerPortIfLetTests {
  @Test("an action for a nil child at \\.self fails the step (IfLet.testNilChild)")
  func nilChild() async throws {
    let reducer = Reduce<Int?, Void> { _, _ in .none }
      .ifLet(\.self, action: { $0 }, extract: { $0 }) { _, _ in .none }
    let store = TestStore(initialState: Int?.none, reducer)
    try await withKnownIssue {
      try await store.send(())
    } matching: {
      $0.description.contains("dropped")
    }
    try await store.finish()
  }

  @Test("toggling the child off ends its timer (IfLet.testEffectCancellation)")
  func effectCancellation() async throws {
    enum Action: Equatable, Sendable { case child(RPTicker.Action), childButtonTapped }
    let clock = TestClock()
    let reducer = Reduce<RPSheet.State, Action> { state, action in
      if action == .childButtonTapped { state.child = state.child == nil ? RPTicker.State() : nil }
      return .none
    }
    .ifLet(\.child, action: Action.child, child: RPTicker.reducer(clock))
    let store = TestStore(initialState: RPSheet.State(), reducer)
    store.timeout = patience
    try await store.send(.childButtonTapped) { $0.child = RPTicker.State() }
    try await store.send(.child(.start))
    await clock.advance(by: .seconds(2))
    try await store.receive(.child(.tick)) { $0.child?.count = 1 }
    try await store.receive(.child(.tick)) { $0.child?.count = 2 }
    try await store.send(.childButtonTapped) { $0.child = nil }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  @Test("an alert with no reducer closes on its action (IfLet.testEphemeralState)")
  func ephemeralState() async throws {
    struct State: Equatable { var alert: String? }
    enum Action: Equatable, Sendable { case alert(Ok), tap }
    enum Ok: Equatable, Sendable { case ok }
    let reducer = Reduce<State, Action> { state, action in
      if action == .tap { state.alert = "Hi!" }
      return .none
    }
    .ifLet(\.alert, action: Action.alert) { _, _ in .dismiss }
    let store = TestStore(initialState: State(), reducer)
    try await store.send(.tap) { $0.alert = "Hi!" }
    try await store.send(.alert(.ok)) { $0.alert = nil }
    try await store.finish()
  }

  @Test("an action that is not a row's passes through forEach (ForEach.testNonElementAction)")
  func nonElementAction() async throws {
    struct State: Equatable { var rows: [RPTicker.State] = [] }
    enum Action: Equatable, Sendable { case buttonTapped, row(id: Int, RPTicker.Action) }
    let reducer = Reduce<State, Action> { _, _ in .none }
      .forEach(\.rows, action: Action.row, child: RPTicker.reducer(TestClock()))
    let store = TestStore(initialState: State(), reducer)
    try await store.send(.buttonTapped)
    try await store.finish()
  }
}

// MARK: - IfCaseLetReducerTests, ScopeTests

struct RPSomeError: Error, Equatable {}

@MainActor
@Suite("TCA port: IfCaseLetReducerTests, ScopeTests")
struct TCAReducerPortCaseTests {
  static var results: Reduce<Result<Int, RPSomeError>, Result<Int, RPSomeError>> {
    let child: Reducer<Int, Int> = { state, action in
      state = action
      return state < 0 ? .run { send in await send(0) } : .none
    }
    return Reduce<Result<Int, RPSomeError>, Result<Int, RPSomeError>> { _, _ in .none }
      .scope(Result.success, action: Result.success, child: child)
  }

  @Test("a case's child runs on its actions; others pass (IfCaseLet.testChildAction)")
  func childAction() async throws {
    let store = TestStore(initialState: .success(0), Self.results)
    store.timeout = patience
    try await store.send(.success(1)) { $0 = .success(1) }
    try await store.send(.failure(RPSomeError()))
    try await store.send(.success(-1)) { $0 = .success(-1) }
    try await store.receive(.success(0)) { $0 = .success(0) }
    try await store.finish()
  }

  @Test("an action for a case not shown fails the step (IfCaseLet.testNilChild)")
  func nilChild() async throws {
    let store = TestStore(initialState: .failure(RPSomeError()), Self.results)
    try await withKnownIssue {
      try await store.send(.success(1))
    } matching: {
      $0.description.contains("dropped")
    }
    try await store.finish()
  }

  enum Siblings: Equatable {
    case child1(RPTicker.State)
    case child2(RPTicker.State)
  }
  enum SiblingsAction: Equatable, Sendable {
    case child1(RPTicker.Action), child1ButtonTapped, child2(RPTicker.Action), child2ButtonTapped
  }

  @Test("showing another case ends the first's timer (IfCaseLet.testEffectCancellation_Siblings)")
  func effectCancellationSiblings() async throws {
    let clock = TestClock()
    let reducer = Reduce<Siblings, SiblingsAction> { state, action in
      if action == .child1ButtonTapped { state = .child1(RPTicker.State()) }
      if action == .child2ButtonTapped { state = .child2(RPTicker.State()) }
      return .none
    }
    .scope(Siblings.child1, action: SiblingsAction.child1, child: RPTicker.reducer(clock))
    .scope(Siblings.child2, action: SiblingsAction.child2, child: RPTicker.reducer(clock))
    let store = TestStore(initialState: .child1(RPTicker.State()), reducer)
    store.timeout = patience
    try await store.send(.child1(.start))
    await clock.advance(by: .seconds(1))
    try await store.receive(.child1(.tick)) { $0 = .child1(RPTicker.State(count: 1)) }
    try await store.send(.child2ButtonTapped) { $0 = .child2(RPTicker.State()) }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  enum Identified: Equatable { case child(RPTicker.State) }
  enum IdentifiedAction: Equatable, Sendable { case child(RPTicker.Action), newChild }

  @Test(
    "a case's child with a new id: TCA ends the old one's effect (IfCaseLet.testIdentifiableChild)")
  func identifiableChild() async throws {
    let clock = TestClock()
    let child: Reducer<RPTicker.State, RPTicker.Action> = { state, action in
      guard action == .start else { return RPTicker.reducer(clock)(&state, action) }
      return .run { [id = state.id] send in
        try await clock.sleep(for: .zero)
        for _ in 0..<id { await send(.increment) }
      }
    }
    let reducer = Reduce<Identified, IdentifiedAction> { state, action in
      if action == .newChild, case .child(let child) = state {
        state = .child(RPTicker.State(id: child.id + 1))
      }
      return .none
    }
    .scope(Identified.child, action: IdentifiedAction.child, child: child)
    let store = TestStore(initialState: .child(RPTicker.State(id: 1)), reducer)
    store.timeout = .milliseconds(300)
    try await store.send(.child(.start))
    try await store.send(.newChild) { $0 = .child(RPTicker.State(id: 2)) }
    try await store.send(.child(.start))
    await clock.advance()
    // TCA: the child of id 1 is gone with its effect; only id 2's two increments come.
    await withKnownIssue(
      "`scope` on an enum case does not look at the id in the case's value (Guarantees)"
    ) {
      try await store.receive(.child(.increment)) { $0 = .child(RPTicker.State(id: 2, count: 1)) }
      try await store.receive(.child(.increment)) { $0 = .child(RPTicker.State(id: 2, count: 2)) }
      try await store.finish()
    }
    store.exhaustivity = .off
    try await store.finish()
  }

  struct Feature: Equatable {
    var child1 = RPTicker.State()
    var child2 = Counting.count(0)
  }
  enum Counting: Equatable {
    case count(Int)
    case name(String)
  }
  enum FeatureAction: Equatable, Sendable { case child1(RPTicker.Action), child2(CountingAction) }
  enum CountingAction: Equatable, Sendable { case count(Int), name(String) }

  static var counting: Reduce<Counting, CountingAction> {
    let count: Reducer<Int, Int> = { state, action in
      state = action
      return state < 0 ? .run { send in await send(0) } : .none
    }
    let name: Reducer<String, String> = { state, action in
      state = action
      return state.isEmpty ? .run { send in await send("Empty") } : .none
    }
    return Reduce<Counting, CountingAction> { _, _ in .none }
      .scope(Counting.count, action: CountingAction.count, child: count)
      .scope(Counting.name, action: CountingAction.name, child: name)
  }
  static var feature: Reduce<Feature, FeatureAction> {
    Reduce<Feature, FeatureAction> { _, _ in .none }
      .scope(\.child1, action: FeatureAction.child1) { state, action in
        switch action {
        case .increment:
          state.count += 1
          return .none
        case .tick:  // TCA's `decrementButtonTapped`.
          state.count -= 1
          return state.count < 0 ? .run { send in await send(.increment) } : .none
        default:
          return .none
        }
      }
      .scope(\.child2, action: FeatureAction.child2, child: counting)
  }

  @Test("a struct child through scope (ScopeTests.testStructChild)")
  func structChild() async throws {
    let store = TestStore(initialState: Feature(), Self.feature)
    store.timeout = patience
    try await store.send(.child1(.increment)) { $0.child1.count = 1 }
    try await store.send(.child1(.tick)) { $0.child1.count = 0 }
    try await store.send(.child1(.tick)) { $0.child1.count = -1 }
    try await store.receive(.child1(.increment)) { $0.child1.count = 0 }
    try await store.finish()
  }

  @Test("an enum child through scope (ScopeTests.testEnumChild)")
  func enumChild() async throws {
    let store = TestStore(initialState: Feature(), Self.feature)
    store.timeout = patience
    try await store.send(.child2(.count(1))) { $0.child2 = .count(1) }
    try await store.send(.child2(.count(-1))) { $0.child2 = .count(-1) }
    try await store.receive(.child2(.count(0))) { $0.child2 = .count(0) }
    try await store.finish()
  }

  @Test("an action for another case than the one shown fails the step (ScopeTests.testNilChild)")
  func scopeNilChild() async throws {
    let store = TestStore(initialState: Counting.count(0), Self.counting)
    try await withKnownIssue {
      try await store.send(.name("Blob"))
    } matching: {
      $0.description.contains("dropped")
    }
    try await store.finish()
  }
}

// MARK: - Probes of the same rules, beyond TCA's tests

@MainActor
@Suite("TCA port: probes of the rules TCA's navigation tests rely on")
struct TCAReducerPortProbeTests {
  @Test(
    "a stack built before the test store keeps the process's ids (testDismissFromDeepLinkedChild)")
  func deepLinkedStackBuiltBefore() async throws {
    // TCA's test builds the stack before its test store and names its screen `id: 0`. The process
    // gives ids from one counter: take one, so that 0 is surely not this stack's.
    _ = [0] as StackState<Int>
    var path = StackState<RPTicker.State>()
    path.append(RPTicker.State())
    path.append(RPTicker.State())
    let ids = path.ids
    let store = TestStore(initialState: RPStack.State(path: path), RPStack.reducer(TestClock()))
    store.timeout = patience
    await withKnownIssue(
      "A stack built before the test store keeps the ids the process gave it (Guarantees)"
    ) {
      try await store.send(.path(id: 0, .increment)) { $0.path[id: 0]?.count = 1 }
    }
    try await store.send(.path(id: ids[1], .close))
    try await store.receiveDismiss { $0.path.removeLast() }
    try await store.finish()
  }

  @Test("a grandchild in a scoped container: its timer ends when the app nils it")
  func scopedContainerGrandchildEffects() async throws {
    let clock = TestClock()
    let inner = Reduce<
      TCAReducerPortPresentationTests.Container.Inner,
      TCAReducerPortPresentationTests.ContainerAction.InnerAction
    > { _, _ in .none }
    .ifLet(
      \.child, action: TCAReducerPortPresentationTests.ContainerAction.InnerAction.child,
      child: RPTicker.reducer(clock))
    enum Action: Equatable, Sendable {
      case container(TCAReducerPortPresentationTests.ContainerAction.InnerAction), close
    }
    let reducer = Reduce<TCAReducerPortPresentationTests.Container, Action> { state, action in
      if action == .container(.openChild) { state.container.child = RPTicker.State() }
      if action == .close { state.container.child = nil }
      return .none
    }
    .scope(\.container, action: Action.container, child: inner)
    let store = TestStore(initialState: TCAReducerPortPresentationTests.Container(), reducer)
    store.timeout = patience
    try await store.send(.container(.openChild)) { $0.container.child = RPTicker.State() }
    try await store.send(.container(.child(.start)))
    await clock.advance(by: .seconds(1))
    try await store.receive(.container(.child(.tick))) { $0.container.child?.count = 1 }
    try await store.send(.close) { $0.container.child = nil }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  struct Row: Equatable, Identifiable {
    var id: Int
    var sheet: RPTicker.State?
  }
  enum RowAction: Equatable, Sendable { case sheet(RPTicker.Action), present }
  struct Rows: Equatable { var rows: [Row] = [] }
  enum RowsAction: Equatable, Sendable { case row(id: Int, RowAction) }

  @Test("a row's sheet that dismisses itself closes the sheet, not the row")
  func rowSheetDismissesItself() async throws {
    let clock = TestClock()
    let row = Reduce<Row, RowAction> { state, action in
      if action == .present { state.sheet = RPTicker.State() }
      return .none
    }
    .ifLet(\.sheet, action: RowAction.sheet, child: RPTicker.reducer(clock))
    let reducer = Reduce<Rows, RowsAction> { _, _ in .none }
      .forEach(\.rows, action: RowsAction.row, child: row)
    let store = TestStore(initialState: Rows(rows: [Row(id: 1), Row(id: 2)]), reducer)
    store.timeout = patience
    try await store.send(.row(id: 2, .present)) { $0.rows[1].sheet = RPTicker.State() }
    try await store.send(.row(id: 2, .sheet(.start)))
    try await store.send(.row(id: 2, .sheet(.close)))
    try await store.receiveDismiss { $0.rows[1].sheet = nil }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  struct Form: Equatable {
    struct Header: Equatable { var title = "" }
    var header = Header()
    var ticker = RPTicker.State()
  }
  enum FormAction: Equatable, Sendable { case header(HeaderAction), ticker(RPTicker.Action) }
  enum HeaderAction: Equatable, Sendable { case cancelTapped }
  struct Screen: Equatable { var form: Form? }
  enum ScreenAction: Equatable, Sendable { case form(FormAction), present }

  @Test("a part scoped into a sheet dismisses the sheet, whose timer ends")
  func scopedPartDismissesItsFeature() async throws {
    let clock = TestClock()
    let form = Reduce<Form, FormAction> { _, _ in .none }
      .scope(\.header, action: FormAction.header) { _, _ in .dismiss }
      .scope(\.ticker, action: FormAction.ticker, child: RPTicker.reducer(clock))
    let reducer = Reduce<Screen, ScreenAction> { state, action in
      if action == .present { state.form = Form() }
      return .none
    }
    .ifLet(\.form, action: ScreenAction.form, child: form)
    let store = TestStore(initialState: Screen(), reducer)
    store.timeout = patience
    try await store.send(.present) { $0.form = Form() }
    try await store.send(.form(.ticker(.start)))
    await clock.advance(by: .seconds(1))
    try await store.receive(.form(.ticker(.tick))) { $0.form?.ticker.count = 1 }
    try await store.send(.form(.header(.cancelTapped))) { $0.form = nil }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  @Test("a feature nested in itself: dismissing the middle ends the innermost's timer")
  func nestedMiddleDismissEndsInnermost() async throws {
    typealias P = TCAReducerPortPresentationTests
    let store = TestStore(initialState: P.Nested(), P.nested)
    store.timeout = patience
    try await store.send(.presentButtonTapped) { $0.child = P.Nested() }
    try await store.send(.child(.presentButtonTapped)) { $0.child?.child = P.Nested() }
    try await store.send(.child(.child(.presentButtonTapped))) {
      $0.child?.child?.child = P.Nested()
    }
    try await store.send(.child(.child(.child(.listen))))
    try await store.send(.child(.child(.listen)))
    try await store.send(.child(.dismissButtonTapped))
    try await store.receiveDismiss { $0.child = nil }
    try await store.finish()
  }
}
