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
/// > `store.state`: the store's state is being mutated in place at that moment, and Swift's
/// > exclusivity checks stop a second access.
@MainActor
public final class Store<State, Action: Sendable> {
  /// The current state. It changes only by reducing an action.
  ///
  /// A scoped store reads it through its parent, so it is never stale.
  public private(set) var state: State {
    get {
      if let scope { return scope.state() }
      registrar.access(self, keyPath: stateKeyPath)
      return _state.unsafelyUnwrapped
    }
    _modify {
      #if canImport(Combine)
        objectWillChange.send()
      #endif
      registrar.willSet(self, keyPath: stateKeyPath)
      defer { registrar.didSet(self, keyPath: stateKeyPath) }
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
  private var queue: [Action] = []
  private var isSending = false
  private var effects: [ObjectIdentifier: InFlight] = [:]
  private var effectsByID: [EffectID: Set<ObjectIdentifier>] = [:]
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

  deinit {
    for inFlight in effects.values {
      inFlight.task.cancel()
    }
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
    return send(action, root: nil)
  }

  private func send(_ action: Action, root: Running?) -> StoreTask {
    guard !isSending else {
      queue.append(action)
      return StoreTask([])
    }
    isSending = true
    defer { isSending = false }

    var started: [Task<Void, Never>] = []
    reduce(action, root, into: &started)
    var index = 0
    repeat {
      while index < queue.count {
        let action = queue[index]
        index += 1
        reduce(action, root, into: &started)
      }
      if hasListeners {
        let state = _state.unsafelyUnwrapped
        for entry in listeners {
          entry.listener(state)
        }
      }
    } while index < queue.count
    if index > 0 { queue.removeAll(keepingCapacity: true) }
    return StoreTask(started)
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
    listener(_state.unsafelyUnwrapped)
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
/// In SwiftUI, `.task { await store.send(.onAppear).finish() }` ties the effects to the view:
/// when the view disappears, SwiftUI cancels the task, and that cancels the effects.
///
/// ```swift
/// let timer = store.send(.startTimer)
/// // Later, when the screen that started it goes away:
/// timer.cancel()
/// ```
public struct StoreTask: Hashable, Sendable {
  /// The tasks of the effects the action started; each waits for the effects it caused.
  let tasks: [Task<Void, Never>]

  init(_ tasks: [Task<Void, Never>]) {
    self.tasks = tasks
  }

  /// Waits until the effects have ended. Cancelling the waiting task cancels the effects.
  public func finish() async {
    guard !tasks.isEmpty else { return }
    await waitForAll(tasks)
  }

  /// Cancels the effects. From this moment nothing they, or the effects of actions they sent,
  /// send is reduced. Their operations see cancellation at once; operations of effects they
  /// caused see it when the effect that caused them ends.
  public func cancel() {
    for task in tasks { task.cancel() }
  }

  /// Whether the effects were cancelled. A task with no effects counts as cancelled.
  public var isCancelled: Bool {
    tasks.allSatisfy(\.isCancelled)
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
  /// What an effect inherits from the effects around it.
  struct Context {
    let origin: Action
    /// The effect whose `send` this work descends from: cancelling its task drops our sends.
    let root: Running?
    var ids: [EffectID] = []
  }

  private func reduce(_ action: Action, _ root: Running?, into tasks: inout [Task<Void, Never>]) {
    let effect = reducer(&state, action)
    guard !effect.isNone else { return }
    start(effect, origin: action, root: root, into: &tasks)
  }

  // NB: Kept out of line so the `.none` path above never builds a `Context`, whose generic
  // metadata the runtime would look up on every send.
  @inline(never)
  private func start(
    _ effect: Effect<Action>, origin: Action, root: Running?,
    into tasks: inout [Task<Void, Never>]
  ) {
    start(effect, Context(origin: origin, root: root), into: &tasks)
  }

  /// Starts `effect` and appends the tasks it started to `tasks`.
  private func start(
    _ effect: Effect<Action>, _ context: Context, into tasks: inout [Task<Void, Never>]
  ) {
    switch effect.operation {
    case .none:
      break

    case .send(let action):
      if isSending {
        queue.append(action)
      } else {
        tasks += send(action, root: context.root).tasks
      }

    case .run(let priority, let work):
      let running = Running(ids: context.ids, root: context.root)
      let send = Send<Action> { [weak self] action in self?.deliver(action, from: running) }
      let task = Self.spawn(work, priority, send, context.origin) { [weak self] in
        self?.end(running)
      }
      register(running, task)
      tasks.append(task)

    case .merge(let effects):
      for effect in effects {
        start(effect, context, into: &tasks)
      }

    case .concatenate(let effects):
      let running = Running(ids: context.ids, root: context.root)
      let steps = Context(origin: context.origin, root: running.root ?? running, ids: context.ids)
      let first = started(effects[0], steps)
      let task = Task { [weak self] in
        await waitForAll(first)
        for effect in effects.dropFirst() {
          guard !Task.isCancelled, let step = self?.started(effect, steps) else { break }
          await waitForAll(step)
        }
        self?.end(running)
      }
      register(running, task)
      tasks.append(task)

    case .cancel(let id):
      cancel(id)

    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight { cancel(id) }
      var context = context
      context.ids.append(id)
      start(effect, context, into: &tasks)
    }
  }

  /// Starts a `.run` task on the global executor, not on the main actor, so the operation starts
  /// at once even while the main actor is busy; the task then hops back only to end.
  private nonisolated static func spawn(
    _ work: Effect<Action>.Work,
    _ priority: TaskPriority?,
    _ send: Send<Action>,
    _ origin: Action,
    end: @escaping @MainActor @Sendable () -> Running?
  ) -> Task<Void, Never> {
    Task(priority: priority) {
      await work.perform(send, startedBy: origin)
      await end()?.waitForChildren()
    }
  }

  private func started(_ effect: Effect<Action>, _ context: Context) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    start(effect, context, into: &tasks)
    return tasks
  }

  private func register(_ running: Running, _ task: Task<Void, Never>) {
    running.task = task
    let key = ObjectIdentifier(running)
    effects[key] = InFlight(task: task, running: running)
    for id in running.ids {
      effectsByID[id, default: []].insert(key)
    }
  }

  /// Removes a finished effect from the registry and hands back what it must still wait for.
  @discardableResult
  private func end(_ running: Running) -> Running {
    if running.state == .active {
      running.state = .finished
      unregister(running)
    }
    return running
  }

  private func cancel(_ id: EffectID) {
    guard let keys = effectsByID.removeValue(forKey: id) else { return }
    for key in keys {
      guard let inFlight = effects.removeValue(forKey: key) else { continue }
      inFlight.running.state = .cancelled
      inFlight.task.cancel()
      for other in inFlight.running.ids where other != id {
        effectsByID[other]?.remove(key)
        if effectsByID[other]?.isEmpty == true { effectsByID[other] = nil }
      }
    }
  }

  private func unregister(_ running: Running) {
    let key = ObjectIdentifier(running)
    effects[key] = nil
    for id in running.ids {
      effectsByID[id]?.remove(key)
      if effectsByID[id]?.isEmpty == true { effectsByID[id] = nil }
    }
  }

  private func deliver(_ action: Action, from running: Running) {
    if let root = running.root, root.state != .cancelled, root.task?.isCancelled == true {
      return
    }
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
      running.children += send(action, root: running.root ?? running).tasks
    }
  }

  /// The number of effects in flight, and of ids they are registered under. For tests.
  var inFlightEffectCount: Int { effects.count }
  var cancellationIDCount: Int { effectsByID.count }
}

/// The registry entry of an in-flight effect. `deinit` reads only `task`, which is `Sendable`.
private struct InFlight: Sendable {
  let task: Task<Void, Never>
  let running: Running
}

/// The main-actor state of one `.run` or `.concatenate` effect.
@MainActor
final class Running {
  enum State { case active, cancelled, finished }

  let ids: [EffectID]
  /// The first effect of the `send` this one descends from, or `nil` if this is that effect.
  let root: Running?
  var task: Task<Void, Never>?
  var state = State.active
  /// Tasks started by the actions this effect sent; its task waits for them before it ends.
  var children: [Task<Void, Never>] = []

  init(ids: [EffectID], root: Running?) {
    self.ids = ids
    self.root = root
  }

  /// Waits for the effects of actions this effect sent. Cancelling the wait cancels them, unless
  /// this effect was cancelled by id, which must not reach effects it only caused.
  func waitForChildren() async {
    let children = children
    guard !children.isEmpty else { return }
    if state == .cancelled {
      for child in children { await child.value }
    } else {
      await waitForAll(children)
    }
  }
}

/// Waits for every task; cancelling the wait cancels them all.
private func waitForAll(_ tasks: [Task<Void, Never>]) async {
  await withTaskCancellationHandler {
    for task in tasks { await task.value }
  } onCancel: {
    for task in tasks { task.cancel() }
  }
}

#if canImport(Combine)
  // NB: `objectWillChange` is main-actor isolated; SwiftUI reads it on the main actor, and
  // `@preconcurrency` turns any other read into a runtime check instead of a data race.
  extension Store: @preconcurrency ObservableObject {}
#endif
