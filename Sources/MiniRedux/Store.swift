// MiniRedux · Copyright (c) 2026 The MiniRedux authors · MIT License: https://opensource.org/license/mit

import Observation

#if canImport(Combine)
  import Combine
#endif

/// The runtime of a feature: it holds the state, reduces the actions you send, and runs the
/// effects the reducer returns.
///
/// Everything a store does happens on the main actor, one action at a time, in the order the
/// actions were sent. A `send` made while an action is being reduced (by a subscriber, an
/// observer, or a reducer that captured the store) is queued behind it, never nested. The state
/// is mutated in place, so the cost of a `send` does not depend on the size of the state.
///
/// `Store` is `Observable` (SwiftUI views and `withObservationTracking` see every change) and,
/// where Combine exists, an `ObservableObject`. Code without SwiftUI can ``subscribe(_:)``.
///
/// ```swift
/// struct Counter {
///   struct State { var count = 0 }
///   enum Action { case incrementTapped, decrementTapped }
///
///   @MainActor static func store() -> Store<State, Action> {
///     Store(initialState: State()) { state, action in
///       switch action {
///       case .incrementTapped:
///         state.count += 1
///         return .none
///       case .decrementTapped:
///         state.count -= 1
///         return .none
///       }
///     }
///   }
/// }
///
/// let store = Counter.store()
/// store.send(.incrementTapped)
/// print(store.state.count)  // 1
/// ```
///
/// > Important: Inside the reducer, read and write the `inout` state you are given, not
/// > `store.state`: the store's state is being mutated in place at that moment, so reading it
/// > stops the program with a message that says so. ``subscribe(_:)`` works there: the first
/// > call comes when the `send` in progress has finished.
@MainActor
public final class Store<State, Action: Sendable> {
  /// The current state. It changes only by reducing an action.
  ///
  /// A scoped store reads it through its parent, so it is never stale.
  public private(set) var state: State {
    get {
      if let scope { return scope.state() }
      if isReducing { Self.stateReadWhileReducing() }
      registrar.access(self, keyPath: stateKeyPath)
      return _state.unsafelyUnwrapped
    }
    _modify {
      #if canImport(Combine)
        objectWillChange.send()
      #endif
      registrar.willSet(self, keyPath: stateKeyPath)
      defer { registrar.didSet(self, keyPath: stateKeyPath) }
      // NB: Only while the state is lent out: observers told in willSet may still read it.
      isReducing = true
      defer { isReducing = false }
      yield &_state!
    }
  }

  /// The state of a root store; `nil` in a scoped store, which holds no state of its own.
  private var _state: State?
  private let reducer: @MainActor (inout State, Action) -> Effect<Action>
  private let scope: Scope?
  private let registrar = ObservationRegistrar()
  // NB: A key path literal inside a generic class is rebuilt on every use; make it once.
  private let stateKeyPath: KeyPath<Store, State> = \.state
  /// Actions sent while an action is being reduced, and the group each one's effects join (`nil`
  /// for the group of the `send` in progress).
  // NB: Two arrays, not one of tuples: unspecialized code looks up a tuple's type metadata at
  // run time on every use, and the bounds checks on every send then use the non-generic one.
  private var queue: [Action] = []
  private var queueGroups: [EffectGroup?] = []
  private var isSending = false
  /// Whether the state is lent `inout` to the reducer, so no one else may read it.
  private var isReducing = false
  /// Concatenations whose step ended while a send was reducing; their next step starts once
  /// the send has reduced everything it queued.
  private var endedSteps: [EffectGroup] = []
  private let effects = EffectRegistry()
  private var _deliverer: (@MainActor @Sendable (Action, Running) -> Void)?
  private var listeners: [(id: UInt64, listener: @MainActor (State) -> Void)] = [] {
    didSet { hasListeners = !listeners.isEmpty }
  }
  // NB: `listeners.isEmpty` in unspecialized generic code looks up type metadata on every send.
  private var hasListeners = false
  private var nextListenerID: UInt64 = 0

  #if canImport(Combine)
    /// Publishes before every change of ``state``, for SwiftUI's `@ObservedObject`.
    public let objectWillChange: ObservableObjectPublisher
  #endif

  /// Creates a store and, if you pass one, reduces `initialAction` before returning.
  ///
  /// ```swift
  /// let store = Store(initialState: Feed.State(), initialAction: .load, Feed.reduce)
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - initialAction: An action reduced during `init`; its effects start then.
  ///   - reducer: Mutates the state for an action and returns the effects to run.
  public init(
    initialState: State,
    initialAction: Action? = nil,
    _ reducer: @escaping @MainActor (inout State, Action) -> Effect<Action>
  ) {
    self._state = initialState
    self.reducer = reducer
    self.scope = nil
    #if canImport(Combine)
      self.objectWillChange = ObservableObjectPublisher()
    #endif
    if let initialAction {
      send(initialAction)
    }
  }

  private init(scope: Scope) {
    self._state = nil
    self.reducer = { _, _ in .none }
    self.scope = scope
    #if canImport(Combine)
      self.objectWillChange = scope.objectWillChange
    #endif
  }

  /// Reduces `action`, then every action it causes synchronously, and starts their effects.
  ///
  /// When `send` returns, the action and every ``Effect/send(_:)`` it produced have been reduced,
  /// and subscribers have been notified once. If `send` is called while an action is being
  /// reduced, the action is queued behind it and the returned task is empty: its effects belong
  /// to the `send` already in progress.
  ///
  /// ```swift
  /// await store.send(.refresh).finish()
  /// ```
  ///
  /// - Complexity: O(1) in the size of the state.
  /// - Returns: A task that ends when the effects started by this action, and by the actions
  ///   those effects send back, have ended.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    if let scope { return scope.send(action) }
    return StoreTask(send(action, in: nil))
  }

  /// Reduces `action` and every action queued meanwhile; their effects join `group`, which is
  /// created when the first effect starts if it is `nil`. Returns the group, if any.
  private func send(_ action: Action, in group: EffectGroup?) -> EffectGroup? {
    guard !isSending else {
      group?.enter()
      queue.append(action)
      queueGroups.append(group)
      return nil
    }
    var root = group
    isSending = true
    reduce(action, &root)
    finishSending(&root)
    return root
  }

  /// Reduces every queued action, starts the concatenation steps that became due, and notifies
  /// subscribers once, until nothing is left to do; then the send in progress is over.
  private func finishSending(_ root: inout EffectGroup?) {
    // NB: The common case, an action that queued nothing and no one to notify, in few checks.
    guard !queueGroups.isEmpty || !endedSteps.isEmpty || hasListeners else {
      isSending = false
      return
    }
    defer { isSending = false }
    var index = 0
    while true {
      while index < queueGroups.count {
        let action = queue[index]
        let group = queueGroups[index]
        index += 1
        if let group {
          var queuedIn: EffectGroup? = group
          reduce(action, &queuedIn)
          group.leave()
        } else {
          reduce(action, &root)
        }
      }
      if !endedSteps.isEmpty {
        let ended = endedSteps
        endedSteps = []
        for steps in ended { steps.whenEmpty?(false) }
        continue
      }
      if hasListeners {
        let state = _state.unsafelyUnwrapped
        for entry in listeners {
          entry.listener(state)
        }
      }
      if index == queueGroups.count && endedSteps.isEmpty { break }
    }
    // NB: Keep a small buffer for the next send, not the largest burst there ever was.
    if index > 0 {
      queue.removeAll(keepingCapacity: queueGroups.capacity <= 16)
      queueGroups.removeAll(keepingCapacity: queueGroups.capacity <= 16)
    }
  }

  /// Calls `listener` with the current state now, then with the new state each time a `send`
  /// has finished reducing, until the subscription is cancelled or the store is released.
  ///
  /// This is for code without SwiftUI: servers, command-line tools, scripts. A `send` reduces
  /// its action and every `.send` it queued before subscribers hear of it, so they see one
  /// notification per `send`, not per action. To log every action, wrap the reducer instead.
  ///
  /// ```swift
  /// let subscription = store.subscribe { state in print("count:", state.count) }
  /// store.send(.incrementTapped)  // prints "count: 1"
  /// subscription.cancel()
  /// ```
  ///
  /// - Returns: A subscription; call ``StoreSubscription/cancel()`` to stop listening.
  @discardableResult
  public func subscribe(_ listener: @escaping @MainActor (State) -> Void) -> StoreSubscription {
    if let scope { return scope.subscribe(listener) }
    let id = nextListenerID
    nextListenerID += 1
    listeners.append((id, listener))
    // NB: Inside the reducer the state is lent out; the send in progress notifies at its end.
    if !isReducing { listener(_state.unsafelyUnwrapped) }
    return StoreSubscription { [weak self] in
      self?.listeners.removeAll { $0.id == id }
    }
  }
}

// MARK: - Scoping

extension Store {
  /// Derives a store of a child feature that reads its state through this store and sends its
  /// actions through this store.
  ///
  /// The child store holds no state and runs no effects of its own: there is one source of truth
  /// and one effect registry, so cancellation ids and ``StoreTask``s work across scopes. Scoped
  /// stores can be scoped again.
  ///
  /// Cost model: reading the child's ``state`` reads the parent's state and applies `toChildState`,
  /// so an observer of the child (`withObservationTracking`, SwiftUI, ``subscribe(_:)``) hears
  /// of every change of the parent's state, not only of the child's part. Keep `toChildState`
  /// cheap (a key path is ideal) and let views compare what they render. A `send` costs one call
  /// of `toParentAction` more than a `send` to the parent.
  ///
  /// ```swift
  /// let counter: Store<Counter.State, Counter.Action> =
  ///   appStore.scope(state: \.counter, action: AppAction.counter)
  /// counter.send(.incrementTapped)  // reduced by the app's reducer as .counter(.incrementTapped)
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: The child's part of this store's state; a key path such as `\.counter`.
  ///   - toParentAction: Embeds a child action in this store's actions, e.g. `AppAction.counter`.
  /// - Returns: A store of the child feature, alive as long as you keep it; it keeps this store
  ///   alive.
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping @MainActor (State) -> ChildState,
    action toParentAction: @escaping @MainActor (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    var scope = Store<ChildState, ChildAction>.Scope(
      state: { toChildState(self.state) },
      send: { self.send(toParentAction($0)) },
      subscribe: { listener in self.subscribe { listener(toChildState($0)) } })
    #if canImport(Combine)
      scope.objectWillChange = objectWillChange
    #endif
    return Store<ChildState, ChildAction>(scope: scope)
  }

  /// How a scoped store reaches its parent.
  struct Scope {
    let state: @MainActor () -> State
    let send: @MainActor (Action) -> StoreTask
    let subscribe: @MainActor (@escaping @MainActor (State) -> Void) -> StoreSubscription
    #if canImport(Combine)
      var objectWillChange = ObservableObjectPublisher()
    #endif
  }
}

extension Store: Observable {}

/// The effects started by one ``Store/send(_:)``: await them or cancel them.
///
/// A task covers the effects the action started and, transitively, the effects of the actions
/// those effects send back: a polling chain in which each tick's effect sends the next tick is
/// one task, which finishes when its last link ends. It holds only the effects in flight now, so
/// a long-lived task costs the same after a million actions as after one.
///
/// In SwiftUI, `.task { await store.send(.onAppear).finish() }` ties the effects to the view:
/// when the view disappears, SwiftUI cancels the task, and that cancels the effects.
///
/// ```swift
/// let timer = store.send(.startTimer)
/// // Later, when the screen that started it goes away:
/// timer.cancel()
/// ```
public struct StoreTask: Hashable, Sendable {
  /// The effects in flight; `nil` if the action started none.
  let group: EffectGroup?

  init(_ group: EffectGroup?) {
    self.group = group
  }

  /// Waits until the effects have ended.
  ///
  /// Cancelling the task that waits cancels the effects and stops the wait at once: nothing the
  /// effects send is reduced any more, even while an operation that ignores cancellation is
  /// still winding down.
  @MainActor
  public func finish() async {
    await group?.wait()
  }

  /// Cancels the effects. From this moment nothing they send is reduced, and every operation
  /// among them, including those of effects caused by actions they sent, sees cancellation.
  /// Effects that such actions would start later do not start.
  @MainActor
  public func cancel() {
    group?.cancel()
  }

  /// Whether the effects were cancelled: by ``cancel()``, or each one by its id before it
  /// finished. A task with no effects counts as cancelled.
  @MainActor
  public var isCancelled: Bool {
    group?.isCancelledOrEveryEffectCancelled ?? true
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(group.map(ObjectIdentifier.init))
  }
}

/// A subscription made with ``Store/subscribe(_:)``.
public struct StoreSubscription: Sendable {
  let onCancel: @MainActor @Sendable () -> Void

  /// Stops the listener from being called. Cancelling twice does nothing.
  @MainActor
  public func cancel() {
    onCancel()
  }
}

// MARK: - Runtime

extension Store {
  /// Reduces one action and starts its effect in `group`, made if needed and there is none.
  private func reduce(_ action: Action, _ group: inout EffectGroup?) {
    let effect = reducer(&state, action)
    guard !effect.isNone else { return }
    start(effect, origin: action, group: &group)
  }

  /// Stops the program: reading `state` now would be an exclusivity violation, which crashes with
  /// a message that does not say what to do.
  private static func stateReadWhileReducing() -> Never {
    fatalError(
      """
      MiniRedux: store.state was read inside the reducer of a Store<\(State.self), \(Action.self)>, \
      while that reducer is changing it. Read and write the `inout` state the reducer is given \
      instead; to react to the new state, use subscribe(_:) or an observer.
      """)
  }

  // NB: Kept out of line so the `.none` path above never builds a context.
  @inline(never)
  private func start(_ effect: Effect<Action>, origin: Action, group: inout EffectGroup?) {
    var context = EffectContext(group: group)
    start(effect, origin, &context)
    group = context.group
  }

  /// Starts `effect` in the context's group, registering every part the moment it starts.
  private func start(_ effect: Effect<Action>, _ origin: Action, _ context: inout EffectContext) {
    switch effect.operation {
    case .none:
      break

    case .send(let action):
      _ = send(action, in: context.group)

    case .run(let priority, let work):
      let group = context.joinedGroup(effects)
      guard !group.isCancelled else { return }
      let running = Running(ids: context.ids, group: group)
      let send = Send(running, deliver: deliverer)
      let task = Self.spawn(work, priority, send, origin, running)
      effects.register(running, task)

    case .merge(let effects):
      for effect in effects {
        start(effect, origin, &context)
      }

    case .concatenate(let steps):
      let group = context.joinedGroup(effects)
      guard !group.isCancelled else { return }
      let concatenation = Running(ids: context.ids, group: group)
      let stepGroup = EffectGroup(effects)
      concatenation.steps = stepGroup
      effects.register(concatenation, nil)
      let stepContext = EffectContext(group: stepGroup, ids: context.ids)
      stepGroup.whenEmpty = { [weak self] mayWait in
        guard let self else { return concatenation.end() }
        if mayWait && self.isSending {
          self.endedSteps.append(stepGroup)
        } else {
          self.advance(concatenation, steps, origin, stepContext)
        }
      }
      advance(concatenation, steps, origin, stepContext)

    case .cancel(let id):
      effects.cancel(id)

    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight { effects.cancel(id) }
      var inner = context
      inner.ids.append(id)
      start(effect, origin, &inner)
      context.group = inner.group
    }
  }

  /// Starts the next step of a concatenation, or ends it if it has none or was cancelled.
  ///
  /// A step starts the way a reducer's effect does, inside a send: its parts start in order,
  /// then the actions it sends are reduced, then steps that ended meanwhile move on. So a step
  /// never interleaves with its siblings, and this is never re-entered.
  private func advance(
    _ concatenation: Running, _ steps: [Effect<Action>], _ origin: Action,
    _ context: EffectContext
  ) {
    guard isSending else {
      var none: EffectGroup?
      isSending = true
      advance(concatenation, steps, origin, context)
      finishSending(&none)
      return
    }
    guard concatenation.steps!.count == 0 else { return }
    if concatenation.state == .active, concatenation.nextStep < steps.count {
      let step = steps[concatenation.nextStep]
      concatenation.nextStep += 1
      var context = context
      start(step, origin, &context)
      // NB: A step that started nothing has ended; the next one starts after the send's queue.
      if concatenation.steps!.count == 0 { endedSteps.append(concatenation.steps!) }
    } else {
      concatenation.end()
    }
  }

  /// Starts the task of a `.run` effect. The operation runs off the main actor; the task starts
  /// and ends on it, so that nothing but the operation itself leaves the main actor.
  private static func spawn(
    _ work: Effect<Action>.Work,
    _ priority: TaskPriority?,
    _ send: Send<Action>,
    _ origin: Action,
    _ running: Running
  ) -> Task<Void, Never> {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      // NB: Starts at once on the main actor, where `send` runs; `perform` then hops off it.
      return Task.immediate(priority: priority) {
        await work.perform(send, startedBy: origin)
        running.end()
      }
    } else {
      return detached(work, priority, send, origin, running)
    }
  }

  /// Before `Task.immediate`, a task that starts off the main actor and hops back to end.
  private nonisolated static func detached(
    _ work: Effect<Action>.Work,
    _ priority: TaskPriority?,
    _ send: Send<Action>,
    _ origin: Action,
    _ running: Running
  ) -> Task<Void, Never> {
    Task(priority: priority) {
      await work.perform(send, startedBy: origin)
      await running.end()
    }
  }

  /// How a `Send` reaches this store; made once, it holds the store weakly.
  private var deliverer: @MainActor @Sendable (Action, Running) -> Void {
    if let made = _deliverer { return made }
    let made: @MainActor @Sendable (Action, Running) -> Void = { [weak self] action, running in
      self?.deliver(action, from: running)
    }
    _deliverer = made
    return made
  }

  private func deliver(_ action: Action, from running: Running) {
    switch running.state {
    case .cancelled:
      return
    case .finished:
      Report.write.get()(
        """
        MiniRedux: an effect sent \(action) after its operation had returned; it was dropped. \
        Call send only while the operation runs.
        """)
    case .active:
      _ = send(action, in: running.group)
    }
  }

  /// The number of effects in flight, and of ids they are registered under. For tests.
  var inFlightEffectCount: Int { effects.count }
  var cancellationIDCount: Int { effects.idCount }
}

extension StoreTask {
  /// The number of effects this task holds: those in flight, cancelled ones still winding down,
  /// and actions queued into it. For tests.
  @MainActor var heldCount: Int { group?.count ?? 0 }
}

/// What an effect inherits from the effects around it.
///
/// NB: Not nested in the generic `Store`: a nested type's metadata is looked up at run time on
/// every effect a store starts.
struct EffectContext {
  /// The group the effect joins: that of the `send` it descends from, or of a concatenation's
  /// current step. A `send` makes its group when its first task-backed effect starts, so an
  /// action that returns only `.send`s makes none.
  var group: EffectGroup?
  var ids: [EffectID] = []

  @MainActor mutating func joinedGroup(_ registry: EffectRegistry) -> EffectGroup {
    if let group { return group }
    let made = EffectGroup(registry)
    group = made
    return made
  }
}

/// The effects in flight that descend from one `send` (the group a ``StoreTask`` refers to), or
/// that one step of a concatenation started.
///
/// An effect joins a group when it starts and leaves when its operation returns, or, for a
/// concatenation, when its last step has ended. Actions an effect sends start their effects in
/// the effect's own group, so a group holds exactly the effects in flight now, however many
/// have come and gone.
@MainActor
final class EffectGroup {
  /// The registry of the store whose effects these are; gone with the store.
  private(set) weak var registry: EffectRegistry?
  /// Effects in flight, including cancelled ones whose operations have not returned yet, plus
  /// actions queued to be reduced into this group.
  private(set) var count = 0
  private var first: Running?
  /// Whether ``cancel()`` was called: effects that would join from now on do not start.
  private(set) var isCancelled = false
  private var finishedOne = false
  private var waiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var nextWaiterID = 0
  /// Called each time the count drops to zero, with `true` (the callee may wait for the send in
  /// progress); a concatenation starts its next step here.
  var whenEmpty: (@MainActor (_ mayWait: Bool) -> Void)?

  init(_ registry: EffectRegistry) {
    self.registry = registry
  }

  /// Whether ``cancel()`` was called, or every effect was cancelled before any finished.
  var isCancelledOrEveryEffectCancelled: Bool {
    if isCancelled { return true }
    if finishedOne { return false }
    var member = first
    while let current = member {
      if current.state != .cancelled { return false }
      member = current.next
    }
    return true
  }

  func add(_ member: Running) {
    member.next = first
    first?.previous = member
    first = member
    enter()
  }

  func remove(_ member: Running) {
    if member.state == .finished { finishedOne = true }
    if let previous = member.previous {
      previous.next = member.next
    } else {
      first = member.next
    }
    member.next?.previous = member.previous
    member.next = nil
    member.previous = nil
    leave()
  }

  func enter() {
    count += 1
  }

  func leave() {
    count -= 1
    guard count == 0 else { return }
    let waiters = waiters
    self.waiters = []
    for waiter in waiters { waiter.continuation.resume() }
    whenEmpty?(true)
  }

  /// Cancels every effect in flight; effects that would join later do not start.
  func cancel() {
    isCancelled = true
    var member = first
    while let current = member {
      member = current.next
      registry?.cancel(current)
    }
  }

  /// Returns when the group is empty, or at once if the waiting task is cancelled, which
  /// cancels the group.
  func wait() async {
    guard count > 0 else { return }
    let id = nextWaiterID
    nextWaiterID += 1
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        waiters.append((id, continuation))
      }
    } onCancel: {
      Task { @MainActor in
        self.cancel()
        self.stopWaiting(id)
      }
    }
  }

  private func stopWaiting(_ id: Int) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume()
  }
}

/// The main-actor state of one `.run` or `.concatenate` effect in flight.
@MainActor
final class Running {
  enum State { case active, cancelled, finished }

  let ids: [EffectID]
  let group: EffectGroup
  var state = State.active
  /// A concatenation's current step, and the index of the next one.
  var steps: EffectGroup?
  var nextStep = 0
  private var hasEnded = false
  /// Neighbours in `group`'s list of members.
  var next: Running?
  unowned var previous: Running?
  /// The effect's index in its store's registry while it is registered, else -1.
  var slot = -1

  init(ids: [EffectID], group: EffectGroup) {
    self.ids = ids
    self.group = group
    group.add(self)
  }

  /// Marks the effect ended and leaves its group: its operation returned, or its last step
  /// ended.
  func end() {
    guard !hasEnded else { return }
    hasEnded = true
    if state == .active {
      state = .finished
      group.registry?.unregister(self)
    }
    steps?.whenEmpty = nil
    group.remove(self)
  }
}

/// The effects of one store that are in flight, and the cancellation ids they are registered
/// under. Released with its store, it cancels them all.
@MainActor
final class EffectRegistry {
  /// An effect in flight. `deinit` may read only `Sendable` values, so the task is kept here.
  private struct InFlight: Sendable {
    let task: Task<Void, Never>?
    let running: Running
  }

  /// The effects registered under one id. Most ids have one at a time, kept without a table.
  private struct Members {
    private(set) var first: Running?
    private var others: [ObjectIdentifier: Running] = [:]

    func forEach(_ body: (Running) -> Void) {
      guard let first else { return }
      body(first)
      for running in others.values { body(running) }
    }

    mutating func insert(_ running: Running) {
      if first == nil { first = running } else { others[ObjectIdentifier(running)] = running }
    }

    mutating func remove(_ running: Running) {
      if first === running {
        first = others.popFirst()?.value
      } else {
        others[ObjectIdentifier(running)] = nil
      }
    }
  }

  /// In no particular order; each effect knows its slot here, so removal is O(1) with no hashing.
  private var inFlight: [InFlight] = []
  private var byID: [EffectID: Members] = [:]

  var count: Int { inFlight.count }
  var idCount: Int { byID.count }

  deinit {
    for effect in inFlight {
      effect.task?.cancel()
    }
  }

  func register(_ running: Running, _ task: Task<Void, Never>?) {
    running.slot = inFlight.count
    inFlight.append(InFlight(task: task, running: running))
    for id in running.ids {
      byID[id, default: Members()].insert(running)
    }
  }

  func unregister(_ running: Running) {
    _ = unregister(running, except: nil)
  }

  /// Cancels every effect registered under `id`.
  func cancel(_ id: EffectID) {
    guard let members = byID.removeValue(forKey: id) else { return }
    members.forEach { unregister($0, except: id).map(cancel) }
  }

  /// Cancels one effect, if it is still in flight.
  func cancel(_ running: Running) {
    unregister(running, except: nil).map(cancel)
  }

  /// Cancels an effect just unregistered: its task, or a concatenation's current step.
  private func cancel(_ effect: InFlight) {
    effect.running.state = .cancelled
    effect.task?.cancel()
    effect.running.steps?.cancel()
  }

  /// Removes `running` from the registry and from every id but `skipped` (already removed).
  private func unregister(_ running: Running, except skipped: EffectID?) -> InFlight? {
    guard let effect = removeFromInFlight(running) else { return nil }
    for id in running.ids where id != skipped { remove(running, under: id) }
    return effect
  }

  private func removeFromInFlight(_ running: Running) -> InFlight? {
    let slot = running.slot
    guard slot >= 0 else { return nil }
    running.slot = -1
    let removed = inFlight[slot]
    let last = inFlight.removeLast()
    if slot < inFlight.count {
      inFlight[slot] = last
      last.running.slot = slot
    }
    return removed
  }

  private func remove(_ running: Running, under id: EffectID) {
    guard var members = byID.removeValue(forKey: id) else { return }
    members.remove(running)
    if members.first != nil { byID[id] = members }
  }
}

#if canImport(Combine)
  // NB: `objectWillChange` is main-actor isolated; SwiftUI reads it on the main actor, and
  // `@preconcurrency` turns any other read into a runtime check instead of a data race.
  extension Store: @preconcurrency ObservableObject {}
#endif
