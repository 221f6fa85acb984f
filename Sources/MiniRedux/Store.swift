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
/// is mutated in place, so the cost of a `send` does not depend on the size of the state (each
/// live scope with `Equatable` state adds a comparison; see `scope(state:action:)`).
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
/// > stops the program with a message that says so. Its own ``subscribe(_:)`` works there: the first
/// > call comes when the `send` in progress has finished.
@MainActor
public final class Store<State, Action: Sendable> {
  /// The current state. It changes only by reducing an action.
  ///
  /// A scoped store reads it through its parent, so it is never stale.
  public private(set) var state: State {
    get {
      if let scope {
        accessState()
        return scope.state()
      }
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
  /// Scoped stores with `Equatable` state that this store notifies after a send; released ones
  /// are forgotten on the next send, or when the list has doubled since it was last pruned.
  private var scopes: [ScopeReference<State>] = [] {
    didSet { hasScopes = !scopes.isEmpty }
  }
  // NB: Like `hasListeners`: a flag costs a root store's send less than reading the array.
  private var hasScopes = false
  private var pruneScopesAt = 16

  #if canImport(Combine)
    /// Publishes before every change of ``state``, for SwiftUI's `@ObservedObject`.
    ///
    /// A store scoped with `Equatable` state publishes only when its state changed, once per
    /// `send`, after the parent's reducer wrote the change: ``state`` already reads the new value.
    /// A store scoped with other state shares its parent's publisher.
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
      self.objectWillChange = scope.objectWillChange ?? ObservableObjectPublisher()
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
  /// - Complexity: O(1) in the size of the state, plus one derivation and one `==` for each live
  ///   scope with `Equatable` state (O(n) when such a scope holds a collection of n elements that
  ///   the action changes; see `scope(state:action:)`).
  /// - Parameter action: The action to reduce.
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
    guard !queueGroups.isEmpty || !endedSteps.isEmpty || hasListeners || hasScopes else {
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
      if hasScopes { notifyScopes() }
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
  /// A store scoped with `Equatable` state calls its listeners only after a `send` that changed
  /// its state; see `scope(state:action:)`.
  ///
  /// ```swift
  /// let subscription = store.subscribe { state in print("count:", state.count) }
  /// store.send(.incrementTapped)  // prints "count: 1"
  /// subscription.cancel()
  /// ```
  ///
  /// - Parameter listener: Called on the main actor with the state, now and after each `send`.
  /// - Returns: A subscription; call ``StoreSubscription/cancel()`` to stop listening.
  @discardableResult
  public func subscribe(_ listener: @escaping @MainActor (State) -> Void) -> StoreSubscription {
    if let subscribe = scope?.subscribeToParent { return subscribe(listener) }
    let id = nextListenerID
    nextListenerID += 1
    listeners.append((id, listener))
    // NB: Inside the reducer the state is lent out; the send in progress notifies at its end.
    if !isReducing { listener(currentState) }
    return StoreSubscription { [weak self] in
      self?.listeners.removeAll { $0.id == id }
    }
  }
}

// MARK: - Scoping

extension Store {
  /// Derives a store of a child feature whose observers hear of a change only when the child's
  /// own state changed.
  ///
  /// The child store runs no effects of its own: it reads its ``state`` through this store, so a
  /// read is never stale, and sends its actions through this store, so there is one source of
  /// truth and one effect registry, and cancellation ids and ``StoreTask``s work across scopes.
  /// Scoped stores can be scoped again.
  ///
  /// Because `ChildState` is `Equatable`, the child notifies its own observers, and only when its
  /// state differs (`!=`) from the state they last heard of: Observation
  /// (`withObservationTracking`, SwiftUI), ``subscribe(_:)``, and `objectWillChange` where Combine
  /// exists. Renaming one row of a list notifies that row's store and no other; writing a value
  /// equal to the current one notifies no one. A scope of this child is compared only when this
  /// child changed, so nested scopes deduplicate at each level. For a `ChildState` that is not
  /// `Equatable`, the other overload applies: observers hear of every change of the parent.
  ///
  /// ```swift
  /// // A row view's store: its observers hear of a send only if this row changed.
  /// let row: Store<Todo?, Todo.Action> =
  ///   listStore.scope(state: { $0.rows.first { $0.id == id } }, action: { .row(id: id, $0) })
  /// ```
  ///
  /// The child's observers are not notified while the parent reduces, but once per `send`, after
  /// the send's actions were reduced, once the parent's own subscribers were called. So a child's
  /// `objectWillChange` fires when its ``state`` already reads the new value. The parent keeps a
  /// weak reference to the child: the child keeps the parent alive, not the other way round.
  ///
  /// Cost model:
  /// - **Kept**: a copy of the child state as its observers last heard of it, the child's own
  ///   observers, and in the parent a weak reference to the child with its comparison. A child
  ///   that is released costs nothing from the next `send` on, which forgets it.
  /// - **When**: after every `send` to the root store, once its actions were reduced, each live
  ///   child calls `toChildState` once and `==` once, whether or not its part changed; a scope of
  ///   a child is compared only when that child changed. 1,000 row stores cost about 70 ns each
  ///   per send on a small Linux server, against about 1.3 µs each when every row's observer
  ///   hears of every send. A store with no scopes with `Equatable` state does none of this.
  /// - **Copy-on-write**: the kept copy shares storage with the parent's state. While the child is
  ///   alive, a parent mutation of a collection inside the child state copies that collection,
  ///   and `==` may read all of it: O(n) per send. With 100,000 `Int`s, such a send costs about
  ///   100 times a send with no such scope, and 400 times when the change is at the end, where
  ///   `==` reads everything. Scope to what a view shows (a row, a count) rather than to a large
  ///   collection, or give a store that must hold one a state type that is not `Equatable`: it
  ///   keeps no copy, and its observers hear of every change.
  ///
  /// > Important: `toChildState` runs after every send while the child is alive, even if no one
  /// > reads the child. Keep it cheap: a key path, an index, a dictionary lookup (a linear
  /// > search in each of 1,000 row stores is a million steps per send). And keep it from
  /// > trapping: once a row is removed, `$0.rows[index]` traps, while
  /// > `$0.rows.first { $0.id == id }` returns `nil`.
  ///
  /// - Complexity: A `send` to the child costs one call of `toParentAction` more than a `send`
  ///   to the parent; each `send` costs one call of `toChildState` and one `==` per live child.
  /// - Parameters:
  ///   - toChildState: The child's part of this store's state; a key path such as `\.counter`.
  ///   - toParentAction: Embeds a child action in this store's actions, e.g. `AppAction.counter`.
  /// - Returns: A store of the child feature, alive as long as you keep it; it keeps this store
  ///   alive.
  public func scope<ChildState: Equatable, ChildAction>(
    state toChildState: @escaping (State) -> ChildState,
    action toParentAction: @escaping @MainActor (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let child = Store<ChildState, ChildAction>(
      scope: .init(
        state: { toChildState(self.currentState) },
        send: { self.send(toParentAction($0)) }))
    var lastSeen = toChildState(currentState)
    // NB: The parent keeps this comparison, so it must not capture either store.
    adopt(child) { state in
      let current = toChildState(state)
      guard current != lastSeen else { return false }
      lastSeen = current
      return true
    }
    return child
  }

  /// Derives a store of a child feature that reads its state through this store and sends its
  /// actions through this store; its observers are this store's observers.
  ///
  /// The child store holds no state and runs no effects of its own: there is one source of truth
  /// and one effect registry, so cancellation ids and ``StoreTask``s work across scopes. Scoped
  /// stores can be scoped again.
  ///
  /// This overload applies when `ChildState` is not `Equatable`, so the child cannot tell whether
  /// its part changed: an observer of the child (`withObservationTracking`, SwiftUI,
  /// ``subscribe(_:)``, `objectWillChange`) hears of every change of this store's state, not only
  /// of the child's part. In exchange the child keeps no copy of its state and costs nothing on
  /// this store's sends. Make `ChildState` `Equatable` to have the child notify only when its
  /// part changed. A scope of this child whose state is `Equatable` still deduplicates: this
  /// store compares it after each send.
  ///
  /// ```swift
  /// let counter: Store<Counter.State, Counter.Action> =
  ///   appStore.scope(state: \.counter, action: AppAction.counter)
  /// counter.send(.incrementTapped)  // reduced by the app's reducer as .counter(.incrementTapped)
  /// ```
  ///
  /// - Complexity: Reading the child's ``state`` applies `toChildState` to this store's state; a
  ///   `send` to the child costs one call of `toParentAction` more than a `send` to this store.
  /// - Parameters:
  ///   - toChildState: The child's part of this store's state; a key path such as `\.counter`.
  ///   - toParentAction: Embeds a child action in this store's actions, e.g. `AppAction.counter`.
  /// - Returns: A store of the child feature, alive as long as you keep it; it keeps this store
  ///   alive.
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (State) -> ChildState,
    action toParentAction: @escaping @MainActor (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let scope = Store<ChildState, ChildAction>.Scope(
      state: { toChildState(self.currentState) },
      send: { self.send(toParentAction($0)) })
    scope.accessParent = { self.accessState() }
    scope.subscribeToParent = { listener in self.subscribe { listener(toChildState($0)) } }
    scope.adoptByParent = { child, changed in
      self.adopt(child) { changed(toChildState($0)) }
    }
    #if canImport(Combine)
      scope.objectWillChange = objectWillChange
    #endif
    return Store<ChildState, ChildAction>(scope: scope)
  }

  /// How a scoped store reaches its parent.
  // NB: A class: a store reads its `scope` on every send, and copying a generic struct of
  // closures costs a type metadata lookup and a retain per closure.
  final class Scope {
    /// The child's state, read through the parent without registering an observation access.
    let state: @MainActor () -> State
    let send: @MainActor (Action) -> StoreTask
    // The rest is set when the state is not `Equatable`: the parent's observers are then this
    // store's. Otherwise this store has observers of its own, which its parent notifies.
    /// Registers a read of the state with whoever notifies the parent's observers.
    var accessParent: (@MainActor () -> Void)?
    var subscribeToParent: (@MainActor (@escaping @MainActor (State) -> Void) -> StoreSubscription)?
    /// Hands a scope of this store with `Equatable` state, and its comparison, to the parent.
    var adoptByParent:
      (@MainActor (any DeduplicatingScope, @escaping @MainActor (State) -> Bool) -> Void)?
    #if canImport(Combine)
      var objectWillChange: ObservableObjectPublisher?
    #endif

    init(
      state: @escaping @MainActor () -> State,
      send: @escaping @MainActor (Action) -> StoreTask
    ) {
      self.state = state
      self.send = send
    }
  }

  /// The state, read without registering an observation access.
  var currentState: State {
    if let scope { return scope.state() }
    if isReducing { Self.stateReadWhileReducing() }
    return _state.unsafelyUnwrapped
  }

  /// Registers a read of ``state`` with whoever notifies this store's observers.
  func accessState() {
    if let accessParent = scope?.accessParent {
      accessParent()
    } else {
      registrar.access(self, keyPath: stateKeyPath)
    }
  }

  /// Adds a scope with `Equatable` state to those this store compares after a send, or to its
  /// parent's if this store's observers are its parent's.
  ///
  /// - Parameter changed: Derives the child's state from this store's, compares it with what the
  ///   child's observers last heard of, keeps it if it differs, and returns whether it did.
  func adopt(
    _ child: any DeduplicatingScope, changed: @escaping @MainActor (State) -> Bool
  ) {
    if let adoptByParent = scope?.adoptByParent { return adoptByParent(child, changed) }
    if scopes.count >= pruneScopesAt {
      scopes.removeAll { $0.store == nil }
      pruneScopesAt = Swift.max(16, 2 * scopes.count)
    }
    scopes.append(ScopeReference(child, changed: changed))
  }

  /// Has every live scope compare its state with what its observers last heard of, and notify
  /// them if it differs; forgets the released ones.
  private func notifyScopes() {
    // NB: Copies: an observer may scope this store again, which appends to the list; and the
    // state is read once, not once per scope (each read of a generic optional looks up its
    // type metadata).
    let current = scopes
    let state = currentState
    var released = false
    for reference in current {
      guard let child = reference.store else {
        released = true
        continue
      }
      if reference.changed(state) { child.stateDidChange() }
    }
    if released { scopes.removeAll { $0.store == nil } }
  }

  /// The number of scopes notified after a send, released ones not yet forgotten included. For
  /// tests.
  var scopeCount: Int { scopes.count }
}

extension Store: DeduplicatingScope {
  func stateDidChange() {
    #if canImport(Combine)
      objectWillChange.send()
    #endif
    registrar.willSet(self, keyPath: stateKeyPath)
    registrar.didSet(self, keyPath: stateKeyPath)
    if hasListeners {
      let state = currentState
      for entry in listeners {
        entry.listener(state)
      }
    }
    if hasScopes { notifyScopes() }
  }
}

/// A scoped store with `Equatable` state, whose parent tells it when its state changed.
@MainActor
protocol DeduplicatingScope: AnyObject {
  /// Notifies the store's observers, then compares the store's own scopes.
  func stateDidChange()
}

/// A parent's weak reference to a scope with `Equatable` state, and the scope's comparison,
/// which captures neither store: the scope keeps the parent alive, not the other way round.
@MainActor
final class ScopeReference<ParentState> {
  weak var store: (any DeduplicatingScope)?
  let changed: @MainActor (ParentState) -> Bool

  init(_ store: any DeduplicatingScope, changed: @escaping @MainActor (ParentState) -> Bool) {
    self.store = store
    self.changed = changed
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
  ///
  /// ```swift
  /// await store.send(.refresh).finish()
  /// print(store.state.items)  // what the refresh loaded
  /// ```
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
  ///
  /// ```swift
  /// let timer = store.send(.startTimer)
  /// timer.cancel()
  /// print(timer.isCancelled)  // true
  /// ```
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
///
/// Dropping it does not stop the listener: the listener is called until you cancel the
/// subscription or the store is released.
///
/// ```swift
/// let subscription = store.subscribe { state in print(state.count) }
/// subscription.cancel()  // the listener is not called again
/// ```
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
      MiniRedux: the state of a Store<\(State.self), \(Action.self)> was read inside its own \
      reducer, while the reducer is changing it: through store.state, a scoped store's state, \
      or subscribe(_:) or scope(state:action:) on a scoped store. Inside the reducer, read and \
      write the `inout` state the reducer is given; subscribe and scope outside it.
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

// MARK: - TestStore

/// A store for tests that makes you account for everything a feature does: each change of the
/// state, each action its effects send back, each effect still running.
///
/// Every step says how the state must change. ``send(_:assert:fileID:line:)`` and `receive`
/// give their closure the state as it was before the action, and the closure turns it into the
/// state expected after it. The actions effects send (``Effect/send(_:)`` included) are recorded
/// in order, and each must be received before the next `send`;
/// ``finish(timeout:fileID:line:)`` waits for the effects to end. Anything else throws a
/// ``TestStoreFailure`` with the file and line of the step and a line diff of the state.
/// Failures are thrown errors, so a `TestStore` needs no test framework: it works the same under
/// Swift Testing, under XCTest and in a script. A `TestStore` released while effects are running
/// or received actions are unasserted, which no `finish()` has reported, says so on standard
/// error.
///
/// Time is the test's: a reducer that takes its clock as a parameter runs on a manual clock in
/// tests (``Effect/debounce(id:for:clock:)`` takes one). The store itself waits in real time only
/// for an effect to send or to end, up to ``timeout``.
///
/// ```swift
/// @Test func incrementAndLoadFact() async throws {
///   let store = TestStore(initialState: Counter.State(), Counter.reduce)
///   try await store.send(.incrementTapped) { $0.count = 1 }
///   try await store.send(.factTapped) { $0.isLoading = true }
///   try await store.receive(.factLoaded("1 is odd")) {
///     $0.isLoading = false
///     $0.fact = "1 is odd"
///   }
///   try await store.finish()
/// }
/// ```
///
/// Not guaranteed: the order in which two effects running at the same time deliver their actions
/// (assert those with ``Exhaustivity/off``, where `receive` skips actions until one matches).
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  /// The current state of the store under test.
  public var state: State { store.state }
  /// How long `receive` and ``finish(timeout:fileID:line:)`` wait for effects when you pass no
  /// timeout. One second by default; raise it where tests share a busy machine, which can keep
  /// an effect's action from the main actor for longer.
  public var timeout: Duration = .seconds(1)
  /// Whether every change and every received action must be asserted (``Exhaustivity/on``, the
  /// default) or only those the test mentions (``Exhaustivity/off``).
  public var exhaustivity: Exhaustivity {
    get { log.exhaustivity }
    set { log.exhaustivity = newValue }
  }

  private let store: Store<State, Action>
  private let log: TestStoreLog<State, Action>

  /// Creates a test store that runs `reducer` like a ``Store`` would, recording what happens.
  ///
  /// `initialAction`, if any, is reduced during `init` without a state assertion; the actions its
  /// effects send must be received like any other.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Counter.State(), Counter.reduce)
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - initialAction: An action reduced during `init`; its effects start then.
  ///   - reducer: The feature's reducer, exactly as the app passes it to ``Store``.
  public init(
    initialState: State,
    initialAction: Action? = nil,
    _ reducer: @escaping @MainActor (inout State, Action) -> Effect<Action>
  ) {
    let log = TestStoreLog<State, Action>()
    self.log = log
    self.store = Store(initialState: initialState) { state, action in
      guard !log.isSending else {
        log.isSending = false
        let effect = reducer(&state, action)
        log.sentState = state
        return effect
      }
      let before = state
      let effect = reducer(&state, action)
      log.received.append(TestStoreLog.Step(action: action, before: before, after: state))
      log.wake()
      return effect
    }
    if let initialAction {
      _ = start(initialAction, origin: "the initialAction")
    }
  }

  deinit {
    // NB: The check reads main-actor state, and the store stays alive until it ran, so the
    // effects it lists are still there; releasing the store then cancels them.
    Task { @MainActor [store, log] in
      _ = store
      log.reportIfUnaccounted()
    }
  }

  /// Sends `action` and checks that it changes the state the way `update` says.
  ///
  /// With ``Exhaustivity/on``, `update` gets the state from before the action and must turn it
  /// into the state after; a change with no `update` is a failure too. With ``Exhaustivity/off``,
  /// `update` gets the state after the action and must leave it unchanged: what it sets must
  /// already hold, and what it does not mention may have changed.
  ///
  /// ```swift
  /// try await store.send(.incrementTapped) { $0.count = 1 }
  /// ```
  ///
  /// - Parameters:
  ///   - action: The action to reduce.
  ///   - update: Turns the state before the action into the state expected after it.
  ///   - fileID: The file shown by a failure; the caller's, by default.
  ///   - line: The line shown by a failure; the caller's, by default.
  /// - Returns: The task of the effects the action started, as ``Store/send(_:)`` returns it.
  /// - Throws: A ``TestStoreFailure`` if the state is not as expected, or if, with
  ///   ``Exhaustivity/on``, actions received earlier were not asserted (then `action` is not
  ///   sent).
  @discardableResult
  public func send(
    _ action: Action,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) async throws -> StoreTask {
    let step = "send(\(TestStoreDump.line(action)))"
    let unasserted = log.received
    log.received.removeAll()
    if exhaustivity == .on, !unasserted.isEmpty {
      throw TestStoreFailure(
        "\(step): actions received earlier were not asserted with receive:\n"
          + unasserted.map { "  \(TestStoreDump.line($0.action))" }.joined(separator: "\n"),
        fileID, line)
    }
    let before = store.state
    log.sentState = nil
    let task = start(action, origin: "sent at \(fileID):\(line)")
    guard let after = log.sentState else {
      throw TestStoreFailure(
        "\(step): MiniRedux did not reduce the action at once; send to a TestStore only from "
          + "the test, never from inside its reducer or an observer", fileID, line)
    }
    log.sentState = nil
    try check(update, before: before, after: after, step, fileID, line)
    return task
  }

  /// Waits for the next action an effect sent and checks that it is `expected` and that it
  /// changed the state the way `update` says.
  ///
  /// With ``Exhaustivity/on``, the next received action must be `expected`; with
  /// ``Exhaustivity/off``, actions before it are skipped. `update` works as in
  /// ``send(_:assert:fileID:line:)``. When no effect is running, no action can come, and it
  /// fails at once instead of waiting.
  ///
  /// ```swift
  /// try await store.receive(.factLoaded("1 is odd")) {
  ///   $0.isLoading = false
  ///   $0.fact = "1 is odd"
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The action the effect must have sent.
  ///   - timeout: How long to wait for it; ``timeout`` if `nil`.
  ///   - update: Turns the state before the action into the state expected after it.
  ///   - fileID: The file shown by a failure; the caller's, by default.
  ///   - line: The line shown by a failure; the caller's, by default.
  /// - Throws: A ``TestStoreFailure`` if another action came, none came in time, or the state
  ///   is not as expected.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) async throws where Action: Equatable {
    try await receive(
      TestStoreDump.line(expected), { $0 == expected }, timeout, update, fileID, line)
  }

  /// Waits for the next action an effect sent and checks that it is `expected`, comparing with
  /// the `Equatable` conformance `Action` has at run time.
  ///
  /// The compiler picks this overload when it cannot use the one above: when `Action`'s
  /// conformance to `Equatable` is isolated to the main actor, as it is for an
  /// `enum Action: Equatable` declared in a target built with `-default-isolation MainActor` (a
  /// test store compares actions on the main actor, where such a conformance holds), and also
  /// when `Action` is not `Equatable` at all: that compiles, and fails when it runs, with a
  /// message that says to receive with a closure instead.
  ///
  /// ```swift
  /// try await store.receive(.factLoaded("1 is odd")) {
  ///   $0.isLoading = false
  ///   $0.fact = "1 is odd"
  /// }
  /// ```
  ///
  /// - Throws: A ``TestStoreFailure`` as the overload above does, or one that says `Action` is
  ///   not `Equatable` at all (then receive with a closure).
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) async throws {
    guard let equatable = expected as? any Equatable else {
      throw TestStoreFailure(
        "receive(\(TestStoreDump.line(expected))): \(Action.self) is not Equatable; declare it "
          + "`enum Action: Equatable`, or receive with a closure", fileID, line)
    }
    try await receive(
      TestStoreDump.line(expected), { isEqual(equatable, $0) }, timeout, update, fileID, line)
  }

  /// Waits for the next action an effect sent and checks that `matches` accepts it and that it
  /// changed the state the way `update` says.
  ///
  /// For actions that are not `Equatable`, or whose payload the test cannot know in advance.
  /// With ``Exhaustivity/off``, actions `matches` rejects are skipped.
  ///
  /// ```swift
  /// try await store.receive({ if case .factLoaded = $0 { true } else { false } }) {
  ///   $0.isLoading = false
  ///   $0.fact = "1 is odd"
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - matches: Whether an action is the one expected.
  ///   - timeout: How long to wait for it; ``timeout`` if `nil`.
  ///   - update: Turns the state before the action into the state expected after it.
  ///   - fileID: The file shown by a failure; the caller's, by default.
  ///   - line: The line shown by a failure; the caller's, by default.
  /// - Throws: A ``TestStoreFailure`` if another action came, none came in time, or the state
  ///   is not as expected.
  public func receive(
    _ matches: (Action) -> Bool,
    timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) async throws {
    try await receive("an action that matches", matches, timeout, update, fileID, line)
  }

  /// Forgets the actions received so far, so that they need no `receive`.
  ///
  /// Actions that effects send later are not skipped: to skip everything an action causes,
  /// wait for its effects first.
  ///
  /// ```swift
  /// let task = try await store.send(.factTapped) { $0.isLoading = true }
  /// await task.finish()
  /// store.skipReceivedActions()
  /// ```
  public func skipReceivedActions() {
    log.received.removeAll()
  }

  /// Waits for every effect started through this store to end, then checks that nothing was
  /// left unasserted.
  ///
  /// Effects still running when `timeout` passes are a failure that lists them by the action
  /// whose `send` started them (effects started by the actions they sent back count as that
  /// send's); they are then cancelled. With ``Exhaustivity/on``, received actions not asserted
  /// are a failure too; with ``Exhaustivity/off`` they are skipped.
  ///
  /// ```swift
  /// try await store.finish()
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; ``timeout`` if `nil`.
  ///   - fileID: The file shown by a failure; the caller's, by default.
  ///   - line: The line shown by a failure; the caller's, by default.
  /// - Throws: A ``TestStoreFailure`` that lists what is unaccounted for.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) async throws {
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now + timeout
    while log.isRunning && ContinuousClock.now < deadline {
      await log.wait(until: deadline)
      try Task.checkCancellation()
    }
    let unaccounted = log.unaccounted(effectsOnly: exhaustivity == .off, after: timeout)
    log.received.removeAll()
    for sent in log.sent where sent.task.heldCount > 0 { sent.task.cancel() }
    log.sent.removeAll()
    guard unaccounted.isEmpty else {
      throw TestStoreFailure("finish(): not accounted for:\n" + unaccounted, fileID, line)
    }
  }

  /// Sends `action` to the store as the action of a `send`, and keeps its task.
  private func start(_ action: Action, origin: String) -> StoreTask {
    log.sent.removeAll { $0.task.heldCount == 0 }
    log.isSending = true
    let task = store.send(action)
    log.isSending = false
    guard task.heldCount > 0 else { return task }
    log.sent.append(TestStoreLog.Sent(action: action, origin: origin, task: task))
    // NB: Wakes a wait when these effects end; it never cancels them.
    Task { [weak log] in
      await task.finish()
      log?.wake()
    }
    return task
  }

  private func receive(
    _ expected: String,
    _ matches: (Action) -> Bool,
    _ timeout: Duration?,
    _ update: ((inout State) throws -> Void)?,
    _ fileID: StaticString,
    _ line: UInt
  ) async throws {
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now + timeout
    var skipped: [String] = []
    while true {
      while !log.received.isEmpty {
        let next = log.received.removeFirst()
        let step = "receive(\(TestStoreDump.line(next.action)))"
        if matches(next.action) {
          return try check(update, before: next.before, after: next.after, step, fileID, line)
        }
        guard exhaustivity == .off else {
          throw TestStoreFailure(
            "receive: expected \(expected), but received \(TestStoreDump.line(next.action))",
            fileID, line)
        }
        skipped.append(TestStoreDump.line(next.action))
      }
      let running = log.isRunning
      if !running || ContinuousClock.now >= deadline {
        let got = skipped.isEmpty ? "nothing" : "only " + skipped.joined(separator: ", ")
        let why = running ? "within \(timeout)" : "and no effect is running"
        throw TestStoreFailure(
          "receive: expected \(expected), but received \(got) \(why)", fileID, line)
      }
      await log.wait(until: deadline)
      try Task.checkCancellation()
    }
  }

  /// Throws unless `update` describes the change from `before` to `after`.
  private func check(
    _ update: ((inout State) throws -> Void)?,
    before: State,
    after: State,
    _ step: String,
    _ fileID: StaticString,
    _ line: UInt
  ) throws {
    var expected: State
    let problem: String
    switch exhaustivity {
    case .on:
      expected = before
      try update?(&expected)
      problem =
        update == nil
        ? "the state changed, but no closure asserted it" : "the state is not as expected"
    case .off:
      guard let update else { return }
      expected = after
      try update(&expected)
      problem = "the state does not hold what the closure asserts"
    }
    guard expected != after else { return }
    throw TestStoreFailure(
      "\(step): \(problem) (- expected, + actual):\n"
        + TestStoreDump.diff(TestStoreDump.lines(expected), TestStoreDump.lines(after)).joined(
          separator: "\n"),
      fileID, line)
  }
}

/// Whether a ``TestStore`` requires every state change and received action to be asserted.
///
/// ```swift
/// store.exhaustivity = .off
/// try await store.send(.factTapped)
/// try await store.receive(.factLoaded("1 is odd")) { $0.fact = "1 is odd" }
/// ```
public enum Exhaustivity: Sendable {
  /// Every change must be described, every received action asserted, in order.
  case on
  /// Assertions must hold, but changes they do not mention are allowed, `receive` skips actions
  /// until one matches, `send` discards the received actions not asserted yet, and `finish`
  /// does not fail on actions left unasserted.
  case off
}

/// Why a ``TestStore`` step failed: what was expected, what happened, and where.
///
/// Its `description` starts with `fileID:line:` of the call that failed, followed by the
/// message: for a state that is not as expected, a line diff of the two states (`-` expected,
/// `+` actual).
///
/// ```swift
/// do {
///   try await store.send(.incrementTapped) { $0.count = 2 }
/// } catch let failure as TestStoreFailure {
///   print(failure)
/// }
/// ```
public struct TestStoreFailure: Error, CustomStringConvertible {
  /// What went wrong.
  public let message: String
  /// The `#fileID` of the call that failed, such as `AppTests/CounterTests.swift`.
  public let fileID: String
  /// The line of the call that failed.
  public let line: UInt

  nonisolated init(_ message: String, _ fileID: StaticString, _ line: UInt) {
    self.message = message
    self.fileID = "\(fileID)"
    self.line = line
  }

  public nonisolated var description: String { "\(fileID):\(line): \(message)" }
}

/// What a ``TestStore`` has seen and not yet checked.
@MainActor
final class TestStoreLog<State, Action> {
  struct Step {
    let action: Action
    let before: State
    let after: State
  }
  /// A `send` whose effects are, or were, in flight.
  struct Sent {
    let action: Action
    /// Where it was sent, for failures.
    let origin: String
    let task: StoreTask
  }

  var exhaustivity = Exhaustivity.on
  /// Whether the next action reduced is the one a `send` sent, not one an effect sent.
  var isSending = false
  var sentState: State?
  var received: [Step] = []
  var sent: [Sent] = []
  private var waiters: [CheckedContinuation<Void, Never>] = []

  var isRunning: Bool { sent.contains { $0.task.heldCount > 0 } }

  /// Resumes every wait; each checks again whether what it waits for happened.
  func wake() {
    let waiters = waiters
    self.waiters = []
    for waiter in waiters { waiter.resume() }
  }

  /// Returns after the next ``wake()``, or at `deadline`.
  func wait(until deadline: ContinuousClock.Instant) async {
    let timer = Task { [weak self] in
      try? await Task.sleep(until: deadline, clock: .continuous)
      if !Task.isCancelled { self?.wake() }
    }
    // NB: A cancelled test stops waiting at once; its caller then throws CancellationError.
    await withTaskCancellationHandler {
      await withCheckedContinuation { waiters.append($0) }
    } onCancel: {
      Task { @MainActor [weak self] in self?.wake() }
    }
    timer.cancel()
  }

  /// The effects still running and, unless `effectsOnly`, the received actions not asserted.
  func unaccounted(effectsOnly: Bool, after timeout: Duration? = nil) -> String {
    var lines: [String] = []
    for sent in self.sent where sent.task.heldCount > 0 {
      let count = sent.task.heldCount
      lines.append(
        "  \(count) effect\(count == 1 ? "" : "s") of \(TestStoreDump.line(sent.action)) "
          + "(\(sent.origin)) still running" + (timeout.map { " after \($0)" } ?? ""))
    }
    if !effectsOnly {
      for step in received {
        lines.append("  \(TestStoreDump.line(step.action)) received but not asserted")
      }
    }
    return lines.joined(separator: "\n")
  }

  func reportIfUnaccounted() {
    let unaccounted = unaccounted(effectsOnly: exhaustivity == .off)
    guard !unaccounted.isEmpty else { return }
    Report.write.get()(
      """
      MiniRedux: a TestStore was released with this not accounted for; end the test with \
      `try await store.finish()`:
      \(unaccounted)
      """)
  }
}

/// Whether `lhs` equals `rhs`, with the conformance a dynamic cast found.
private func isEqual<Value: Equatable>(_ lhs: Value, _ rhs: Any) -> Bool {
  (rhs as? Value).map { $0 == lhs } ?? false
}

/// How a failure shows values: one field per line, short values on one line, and a line diff.
enum TestStoreDump {
  /// `value` on one line, as actions are shown.
  static func line(_ value: Any) -> String {
    render(value, width: .max, depth: 0).joined(separator: " ")
  }

  /// `value` on several lines, fields of the top level each on its own.
  static func lines(_ value: Any) -> [String] {
    render(value, width: 0, depth: 0)
  }

  /// The lines of `old` and `new`, those only in `old` marked `-`, those only in `new` `+`.
  static func diff(_ old: [String], _ new: [String]) -> [String] {
    // NB: The common head and tail first: a large state usually differs in a few lines, and
    // the longest common subsequence below is O(n·m) in time and memory.
    var head = 0
    while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
    var tail = 0
    while tail < old.count - head, tail < new.count - head,
      old[old.count - 1 - tail] == new[new.count - 1 - tail]
    {
      tail += 1
    }
    let removed = Array(old[head..<(old.count - tail)])
    let added = Array(new[head..<(new.count - tail)])
    var result = unchanged(old[..<head], keepingLast: 3)
    if removed.count * added.count <= 250_000 {
      result += commonSubsequenceDiff(removed, added)
    } else {
      result += capped(removed, "- ") + capped(added, "+ ")
    }
    result += unchanged(old[(old.count - tail)...], keepingFirst: 3)
    if !result.contains(where: { !$0.hasPrefix(" ") }) {
      result.append("(both print the same, but == says they differ)")
    }
    return result
  }

  /// Unchanged lines, with a long run shortened to the lines next to a change.
  private static func unchanged(
    _ lines: ArraySlice<String>, keepingFirst first: Int = 0, keepingLast last: Int = 0
  ) -> [String] {
    guard lines.count > first + last + 3 else { return lines.map { "  " + $0 } }
    let elided = "  … \(lines.count - first - last) unchanged lines"
    return lines.prefix(first).map { "  " + $0 } + [elided] + lines.suffix(last).map { "  " + $0 }
  }

  private static func capped(_ lines: [String], _ mark: String) -> [String] {
    let shown = lines.prefix(50).map { mark + $0 }
    return lines.count > 50 ? shown + ["\(mark)… \(lines.count - 50) more lines"] : shown
  }

  private static func commonSubsequenceDiff(_ old: [String], _ new: [String]) -> [String] {
    var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in old.indices.reversed() {
      for j in new.indices.reversed() {
        common[i][j] =
          old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
      }
    }
    var result: [String] = []
    var (i, j) = (0, 0)
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        result.append("  " + old[i])
        (i, j) = (i + 1, j + 1)
      } else if j == new.count || (i < old.count && common[i + 1][j] >= common[i][j + 1]) {
        result.append("- " + old[i])
        i += 1
      } else {
        result.append("+ " + new[j])
        j += 1
      }
    }
    return result
  }

  /// `value` as lines; a composite fits on one line if it is at most `width` long.
  private static func render(_ value: Any, width: Int, depth: Int) -> [String] {
    let mirror = Mirror(reflecting: value)
    func children(labelled: Bool, sorted: Bool = false) -> [[String]] {
      let rendered = mirror.children.map { child in
        var lines = render(child.value, width: width == .max ? .max : 60, depth: depth + 1)
        if labelled, let label = child.label, !label.hasPrefix(".") {
          lines[0] = "\(label): \(lines[0])"
        }
        return lines
      }
      return sorted ? rendered.sorted { $0.joined() < $1.joined() } : rendered
    }
    if depth > 20 { return [String(describing: value)] }
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.map { render($0.value, width: width, depth: depth) } ?? ["nil"]
    case .collection:
      return wrap("[", children(labelled: false), "]", width)
    case .set, .dictionary:
      // NB: Their order changes from one instance to another; sorted, equal parts line up.
      return wrap("[", children(labelled: false, sorted: true), "]", width)
    case .tuple:
      return wrap("(", children(labelled: true), ")", width)
    case .enum:
      guard let payload = mirror.children.first, let label = payload.label else {
        return [".\(value)"]
      }
      let inner = render(payload.value, width: width, depth: depth + 1)
      if Mirror(reflecting: payload.value).displayStyle == .tuple {
        return [".\(label)\(inner[0])"] + inner.dropFirst()
      }
      return wrap(".\(label)(", [inner], ")", width)
    case .struct, .class:
      if value is CustomStringConvertible || value is CustomDebugStringConvertible {
        return [String(describing: value)]
      }
      return wrap("\(type(of: value))(", children(labelled: true), ")", width)
    default:
      return [String(reflecting: value)]
    }
  }

  private static func wrap(_ open: String, _ items: [[String]], _ close: String, _ width: Int)
    -> [String]
  {
    let singles = items.compactMap { $0.count == 1 ? $0[0] : nil }
    if singles.count == items.count {
      let joined = open + singles.joined(separator: ", ") + close
      if joined.count <= width || items.isEmpty { return [joined] }
    }
    return [open] + items.flatMap { $0.map { "  " + $0 } } + [close]
  }
}

#if canImport(Combine)
  // NB: `objectWillChange` is main-actor isolated; SwiftUI reads it on the main actor, and
  // `@preconcurrency` turns any other read into a runtime check instead of a data race.
  extension Store: @preconcurrency ObservableObject {}
#endif
