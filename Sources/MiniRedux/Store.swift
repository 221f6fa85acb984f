// MiniRedux · Copyright (c) 2026 The MiniRedux authors · MIT License: https://opensource.org/license/mit
// Store.swift: the store and what surrounds it; Effect.swift holds effects and their runtime.
// The core: `Reducer`; `Store`, which reduces what you send and tells its observers, and its
// `StoreSubscription`s; `StoreCore`, the one door to a root store's `Runtime` (in Effect.swift).
// Beyond the core, each a section a reader can skip; the core names them only at `attach`,
// `layers`, `observeState()` and `notifyLayers()` (HowItWorks' list):
//   Scoped stores and observation: `scope`, `store.property`, Observation's bookkeeping.
//   Child features: `Reduce` (`scope`, `ifLet`, `forEach`), `StackState`.
//   Printing changes: `printChanges`, and how values are shown and diffed.
//   Testing: `TestStore`, `TestClock`, `ImmediateTestClock`, the executor of a test's effects.
//   Combine: `ObservableObject`.

import Dispatch
import Observation

/// A reducer: it changes the state for an action, on the main actor, and returns an effect to run.
/// ```swift
/// let reduce: Reducer<Int, Bool> = { count, increment in
///   count += increment ? 1 : -1
///   return .none
/// }
/// ```
public typealias Reducer<State, Action: Sendable> =
  @MainActor (inout State, Action) -> Effect<Action>

/// The runtime of a feature: it holds the state, reduces the actions you send, runs their effects.
///
/// A store does everything on the main actor, one action at a time, in the order sent
/// (<doc:Guarantees>); it is `Observable`, and an `ObservableObject` where Combine exists.
/// ```swift
/// let store = Store<State, Action>(initialState: State()) { state, action in
///   switch action {
///   case .incrementTapped:
///     state.count += 1
///     return .none
///   }
/// }
/// store.send(.incrementTapped)
/// print(store.state.count)  // 1
/// ```
/// > Important: Reading `store.state` inside the reducer stops the program; use its `inout` state.
@MainActor @dynamicMemberLookup public final class Store<State, Action: Sendable> {
  /// The current state, which only reducing an action changes; a scoped store reads its parent's.
  public var state: State {
    observeState()  // NB: The one way in for observation and scoped stores to hear of a read.
    return core.read()
  }

  let core: any StoreCore<State, Action>
  private(set) var listeners: [(id: Int, listener: @MainActor (State) -> Void)] = [] {
    didSet { hasListeners = !listeners.isEmpty }
  }
  // NB: A flag each send reads (HowItWorks' table); `cancellations` counts listeners cancelled.
  private var (hasListeners, nextListenerID, cancellations) = (false, 0, 0)
  // NB: The one way in for what the layers keep (`Layers`), and two fields beside it (HowItWorks).
  fileprivate(set) var (layers, isTracked, stateKeyPath) = (Store.newLayers(), false, \Store.state)

  /// Creates a store and, if you pass one, reduces `initialAction` before returning.
  /// ```swift
  /// let store = Store(initialState: Feed.State(), initialAction: .load, Feed.reduce)
  /// ```
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - initialAction: An action to reduce at once, such as one that starts loading.
  ///   - reducer: The feature's reducer.
  ///   - context: Runs each reduction and the start of its effects inside it, so that task-local
  ///     values it binds reach them all (<doc:MigratingFromTCA>); it must call `reduce` once.
  public init(
    initialState: State, initialAction: Action? = nil, _ reducer: @escaping Reducer<State, Action>,
    context: (@MainActor (_ reduce: () -> Void) -> Void)? = nil
  ) {
    let runtime = Runtime(initialState, reducer, context: context)
    core = runtime
    runtime.store = self
    if let initialAction { send(initialAction) }
  }
  init(core: any StoreCore<State, Action>) { self.core = core }

  /// Reduces `action`, then every action it causes synchronously, and starts their effects;
  /// observers hear of it at the end. A `send` made meanwhile (by a listener, too) joins this one.
  /// ```swift
  /// await store.send(.refresh).finish()
  /// ```
  /// - Returns: The effects of the action, and of the actions they send back.
  @discardableResult public func send(_ action: Action) -> StoreTask {
    // NB: A Swift 5 app may call this off the main actor, with only a warning: debug builds stop.
    assert(isMainQueue(), "MiniRedux: Store.send was called off the main actor; send from it")
    return core.send(action)
  }

  /// Calls `listener` with the state now, then after each `send` (for a scoped store with
  /// `Equatable` state, each that changed it), until the subscription is cancelled or the root
  /// store released: a scoped store's listener lives with the root store, not with the scope.
  /// ```swift
  /// let subscription = store.subscribe { state in print("count:", state.count) }
  /// store.send(.incrementTapped)  // prints "count: 1"
  /// subscription.cancel()
  /// ```
  /// - Parameter listener: Called on the main actor with each state: `@MainActor (State) -> Void`.
  /// - Returns: The subscription, which ``StoreSubscription/cancel()`` ends; dropping it does not.
  @discardableResult
  public func subscribe(_ listener: @escaping @MainActor (State) -> Void) -> StoreSubscription {
    core.subscribe(listener)
  }

  /// Adds `listener` to this store's own listeners: a root store's.
  func listen(_ listener: @escaping @MainActor (State) -> Void) -> StoreSubscription {
    let id = (nextListenerID, nextListenerID += 1).0
    listeners.append((id, listener))
    return StoreSubscription { [weak self] in
      guard let self, let index = listeners.firstIndex(where: { $0.id == id }) else { return }
      listeners.remove(at: index)
      if isRoomy(listeners.capacity, listeners.count) { listeners = listeners.map { $0 } }
      cancellations += 1
    }
  }

  // NB: Where observers hear of a change; the one way in for the layers, around the listeners.
  func notify() {
    if isTracked { notifyLayers(around: notifyListeners) } else { notifyListeners() }
  }

  private func notifyListeners() {
    guard hasListeners else { return }
    let (state, cancellations) = (core.read(), cancellations)
    // NB: Over a copy, as a listener may subscribe; one cancelled meanwhile hears nothing.
    for entry in listeners where self.cancellations == cancellations || isSubscribed(entry.id) {
      entry.listener(state)
    }
  }
  // NB: A function of its own, not the loop's `where` (HowItWorks' table).
  private func isSubscribed(_ id: Int) -> Bool { listeners.contains { $0.id == id } }
}

/// Where a store's state is and where its actions go: a root `Runtime`, or a scoped `ScopedCore`.
@MainActor protocol StoreCore<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable
  /// The state; read inside the root store's reducer, it stops the program.
  func read() -> State
  func send(_ action: Action) -> StoreTask
  /// Tells a scoped store's parent, once, that `store` is observed; a root store has no parent.
  func attach(_ store: Store<State, Action>)
  /// Adds a listener of the store's state to the root store's listeners, and calls it now.
  func subscribe(_ listener: @escaping @MainActor (State) -> Void) -> StoreSubscription
}

/// A subscription made with ``Store/subscribe(_:)``; dropping it does not stop the listener.
/// ```swift
/// let subscription = store.subscribe { state in print(state.count) }
/// subscription.cancel()  // the listener is not called again
/// ```
public struct StoreSubscription: Sendable {
  let onCancel: @MainActor @Sendable () -> Void
  /// Stops the listener, even during a notification in progress; cancelling twice does nothing.
  @MainActor public func cancel() { onCancel() }
}

// MARK: - Beyond the core: scoped stores and observation
extension Store: Observable {
  /// What the layers keep in a store: Observation's registrar, whether `state` was read since, and
  /// the properties read, each with its token; Combine's `objectWillChange`, once read; and the
  /// attached scoped stores, whose `notify` returns `false` once the scoped store is released.
  typealias Layers = (
    registrar: ObservationRegistrar, willChange: AnyObject?, isStateObserved: Bool,
    observed: [(keyPath: AnyKeyPath, token: AnyKeyPath, isObserved: Bool, changed: () -> Bool)],
    scopes: [(notify: @MainActor () -> Bool, isAlive: @MainActor () -> Bool)], pruneScopesAt: Int
  )
  static func newLayers() -> Layers { (ObservationRegistrar(), nil, false, [], [], keptCapacity) }
  /// Tells the layers that `state` is read: a scoped store attaches to its parent; Observation.
  func observeState() {
    core.attach(self)
    (isTracked, layers.isStateObserved) = (true, true)
    layers.registrar.access(self, keyPath: stateKeyPath)
  }

  /// Tells the layers of a change: Combine and Observation before the `listeners`, scopes after.
  func notifyLayers(around listeners: () -> Void) {
    #if canImport(Combine)
      (layers.willChange as? ObservableObjectPublisher)?.send()
    #endif
    if layers.isStateObserved {
      layers.isStateObserved = false
      layers.registrar.withMutation(of: self, keyPath: stateKeyPath) {}
    }
    for index in layers.observed.indices where layers.observed[index].isObserved {
      guard layers.observed[index].changed() else { continue }
      // NB: First, as an observer told of the change may read it again.
      layers.observed[index].isObserved = false
      let token = layers.observed[index].token as! KeyPath<Store, Int>
      layers.registrar.withMutation(of: self, keyPath: token) {}
    }
    listeners()
    let released = layers.scopes.count { !$0.notify() }  // NB: Each is told, then those gone go.
    if released > 0 { layers.scopes = layers.scopes.filter { $0.isAlive() } }  // NB: Fit to them.
    isTracked =
      layers.willChange != nil || !layers.scopes.isEmpty || layers.isStateObserved
      || layers.observed.contains { $0.isObserved }
  }

  /// A store of a child feature that reads and sends through this one, and tells its observers of
  /// a `send` only if its state changed (`!=`); `toChildState` runs after every `send` while the
  /// child lives, so keep it cheap (<doc:CompositionAndScoping>).
  /// ```swift
  /// let header: Store<Header, Header.Action> =
  ///   appStore.scope(state: \.header, action: AppAction.header)
  /// header.send(.rename("Inbox"))  // its observers hear of this send, not of others
  /// ```
  public func scope<ChildState: Equatable, ChildAction>(
    state toChildState: @escaping (State) -> ChildState,
    action toParentAction: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let child = Store<ChildState, ChildAction>(
      core: ScopedCore(self, toChildState, toParentAction) {
        var lastSeen: ChildState?
        return { isChanged(&lastSeen, to: toChildState($0)) }
      })
    child.core.attach(child)
    return child
  }

  /// A store of a child feature that reads and sends through this one; keeping no copy of its
  /// state, it tells its observers of every `send`.
  /// ```swift
  /// let counter: Store<Counter.State, Counter.Action> =
  ///   appStore.scope(state: \.counter, action: AppAction.counter)
  /// counter.send(.incrementTapped)  // reduced by the app's reducer as .counter(.incrementTapped)
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (State) -> ChildState,
    action toParentAction: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    .init(core: ScopedCore(self, toChildState, toParentAction) { { _ in true } })
  }

  /// A store of a child feature that comes and goes (a sheet, a pushed screen, a row) while it is
  /// present, else `nil`; while no child is there, it keeps its last state, and sends are dropped.
  /// ```swift
  /// if let timer = appStore.scope(state: \.timer, action: App.Action.timer) {
  ///   timer.send(.start)
  /// }
  /// ```
  public func scope<ChildState: Equatable, ChildAction>(
    state toChildState: @escaping (State) -> ChildState?,
    action toParentAction: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    guard var last = toChildState(core.read()) else { return nil }
    return scope(state: { (last = toChildState($0) ?? last, last).1 }, action: toParentAction)
      as Store<ChildState, ChildAction>
  }

  /// Calls `listener` with `select(state)` now, then after each `send` that changed it (`!=`), as
  /// Redux's `select` with `skipRepeats` does; the subscription lives as ``subscribe(_:)``'s does.
  /// ```swift
  /// let subscription = store.subscribe(to: \.todos.count) { count in print("todos:", count) }
  /// ```
  /// - Parameters:
  ///   - select: The part of the state to hear of, such as a key path.
  ///   - listener: Called on the main actor, `@MainActor (Selection) -> Void`, with each change.
  /// - Returns: The subscription, which ``StoreSubscription/cancel()`` ends; dropping it does not.
  @discardableResult public func subscribe<Selection: Equatable>(
    to select: @escaping (State) -> Selection, _ listener: @escaping @MainActor (Selection) -> Void
  ) -> StoreSubscription {
    var last: Selection?  // NB: No scope, whose making reads the state: this works in a reducer.
    return subscribe { if isChanged(&last, to: select($0)) { listener(last!) } }
  }

  /// Reads a property of the state, as `store.count` reads `store.state.count`; Observation hears
  /// of it only on a `send` that changed it (`!=`, or any `send` for a value not `Equatable`).
  /// ```swift
  /// let store = Store(initialState: Counter.State(), Counter.reduce)
  /// store.send(.incrementTapped)
  /// print(store.count)  // 1: a view that reads it re-renders when a send changes count
  /// ```
  /// - Parameter keyPath: The property of the state to read.
  /// - Returns: Its current value.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    core.attach(self)
    let value = core.read()[keyPath: keyPath]
    // NB: A key path literal outside generic code is one object: most reads find it by identity.
    let properties = layers.observed
    let known = properties.firstIndex { $0.keyPath === keyPath }
    let index = known ?? properties.firstIndex { $0.keyPath == keyPath } ?? observe(keyPath, value)
    if !layers.observed[index].isObserved {
      // NB: Not compared since its last change: `changed` catches up to the value read now.
      _ = layers.observed[index].changed()
      (isTracked, layers.observed[index].isObserved) = (true, true)
    }
    layers.registrar.access(self, keyPath: layers.observed[index].token as! KeyPath<Store, Int>)
    return value
  }

  /// Watches `keyPath`, whose value is `value` now, for Observation; returns its index.
  private func observe<Value>(_ keyPath: KeyPath<State, Value>, _ value: Value) -> Int {
    // NB: `Compared` is `Value`, opened from a metatype: no cast per comparison.
    func changed<Compared: Equatable>(_: Compared.Type) -> () -> Bool {
      var (keyPath, last) = (keyPath as! KeyPath<State, Compared>, value as! Compared)
      return { [unowned self] in isChanged(&last, to: core.read()[keyPath: keyPath]) }
    }
    // NB: A token for Observation, told apart by its index; it is never read.
    let token = \Store.[observed: layers.observed.count]
    layers.observed.append(
      (keyPath, token, false, (Value.self as? any Equatable.Type).map { changed($0) } ?? { true }))
    return layers.observed.count - 1
  }
  private subscript(observed index: Int) -> Int { index }
}

/// Whether `value` differs (`!=`) from `last`, which it then replaces: a scope's, a property's.
nonisolated func isChanged<Value: Equatable>(_ last: inout Value, to value: Value) -> Bool {
  defer { last = value }
  return value != last
}

extension Store where State: Sendable {
  /// The state now, then after each `send` (for a scoped store with `Equatable` state, each that
  /// changed it), as an `AsyncSequence` that ends when the root store is released; a consumer that
  /// leaves its loop ends its listener. One slower than the sends gets the newest state, not each.
  /// ```swift
  /// for await state in store.states {
  ///   print("count:", state.count)
  /// }
  /// ```
  public var states: AsyncStream<State> {
    let (states, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .bufferingNewest(1))
    // NB: The listener holds `ending`, which ends `states` when released with the root store.
    let ending = AsyncStream<Never>.makeStream().continuation
    ending.onTermination = { _ in continuation.finish() }
    let subscription = subscribe { _ = (ending, continuation.yield($0)) }
    continuation.onTermination = { _ in Task { @MainActor in subscription.cancel() } }
    return states
  }
}

extension StoreCore { func attach(_ store: Store<State, Action>) {} }

@MainActor
final class ScopedCore<ParentState, ParentAction: Sendable, State, Action: Sendable>: StoreCore {
  // NB: Strongly: a scoped store keeps its parent alive, never the other way.
  private let parent: Store<ParentState, ParentAction>
  private let (toState, toParentAction): ((ParentState) -> State, (Action) -> ParentAction)
  /// Makes a function telling if the child's state changed since its last call: one per observer.
  private let changes: @MainActor () -> @MainActor (ParentState) -> Bool
  private var isAttached = false
  init(
    _ parent: Store<ParentState, ParentAction>, _ toState: @escaping (ParentState) -> State,
    _ toParentAction: @escaping (Action) -> ParentAction,
    changes: @escaping @MainActor () -> @MainActor (ParentState) -> Bool
  ) {
    (self.parent, self.toState, self.toParentAction, self.changes) =
      (parent, toState, toParentAction, changes)
  }

  // NB: Through the parent, capturing no store, so that the listener lives with the root store.
  func subscribe(_ listener: @escaping @MainActor (State) -> Void) -> StoreSubscription {
    parent.subscribe { [changed = changes(), toState] in if changed($0) { listener(toState($0)) } }
  }

  func read() -> State { toState(parent.core.read()) }
  func send(_ action: Action) -> StoreTask { parent.send(toParentAction(action)) }

  /// Until attached (if `Equatable`, when made; else when observed), the child hears of no change.
  func attach(_ store: Store<State, Action>) {
    guard !isAttached else { return }
    isAttached = true
    parent.core.attach(parent)
    let changed = changes()
    _ = changed(parent.core.read())
    if parent.layers.scopes.count >= parent.layers.pruneScopesAt {
      parent.layers.scopes = parent.layers.scopes.filter { $0.isAlive() }
      parent.layers.pruneScopesAt = Swift.max(keptCapacity, 2 * parent.layers.scopes.count)
    }
    // NB: The child weakly, as it keeps its parent alive; the parent unowned, as it holds this.
    weak let store = store
    let notify: @MainActor () -> Bool = { [unowned parent, changed] in
      if let store, changed(parent.core.read()) { store.notify() }
      return store != nil
    }
    parent.layers.scopes.append((notify, { store != nil }))
    parent.isTracked = true
  }
}

// MARK: - Child features
extension Store {
  /// Creates a store of a feature whose reducer is a ``Reduce`` value, as
  /// ``init(initialState:initialAction:_:context:)-(_,_,Reducer<State,Action>,_)`` does.
  /// ```swift
  /// let store = Store(initialState: Inbox.State(), Inbox.reducer)
  /// ```
  public convenience init(
    initialState: State, initialAction: Action? = nil, _ reducer: Reduce<State, Action>,
    context: (@MainActor (_ reduce: () -> Void) -> Void)? = nil
  ) {
    self.init(
      initialState: initialState, initialAction: initialAction, reducer.reduce, context: context)
  }
}

/// A feature's reducer as a value, to which each child feature is added by a call naming its state
/// and its case of `Action`; the child's reducer runs first (<doc:CompositionAndScoping>).
/// ```swift
/// static let reducer = Reduce(core)
///   .scope(\.header, action: Action.header, child: Header.reduce)
///   .ifLet(\.sheet, action: Action.sheet, child: Sheet.reduce)
///   .forEach(\.rows, action: Action.row, child: Row.reduce)
/// ```
// NB: Unchecked: Swift 5 mode does not see a main-actor closure as `Sendable`, which it is.
public struct Reduce<State, Action: Sendable>: @unchecked Sendable {
  /// The reducer, as a ``Store`` runs it.
  public let reduce: Reducer<State, Action>

  /// A reducer value that runs `reduce`.
  /// ```swift
  /// static let reducer = Reduce<State, Action> { state, action in
  ///   state.count += 1
  ///   return .none
  /// }
  /// ```
  /// - Parameter reduce: The feature's own logic.
  public init(_ reduce: @escaping Reducer<State, Action>) { self.reduce = reduce }

  /// This reducer with a child feature that is always there, at `path`, which must stay valid:
  /// for an element of a collection, `\.panels[0]`, use `forEach`.
  /// ```swift
  /// static let reducer = Reduce(core)
  ///   .scope(\.counter, action: Action.counter, child: Counter.reduce)
  /// ```
  /// - Parameters:
  ///   - path: Where the child's state is.
  ///   - embed: The case that wraps the child's actions, named as the function that makes it.
  ///   - extract: The child's action in an action, if it is one; by default, read at run time.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  @inlinable public func scope<ChildState, ChildAction>(
    _ path: sending WritableKeyPath<State, ChildState>,
    action embed: @escaping (ChildAction) -> Action,
    extract: (@MainActor (Action) -> ChildAction?)? = nil,
    child: @escaping Reducer<ChildState, ChildAction>
  ) -> Self {
    nonisolated(unsafe) let path = path  // Sound: read only on the main actor, as the store is.
    return embedding(
      path, action: embed, extract: extract, child: child, owns: false, find: { _ in true },
      read: { $0[keyPath: path] }, modify: { $1(&$0[keyPath: path]) })
  }

  /// This reducer, whose state is an enum, with a child feature for the case `embedState` makes:
  /// its effects end when another case is shown, an action for a case not shown is dropped and
  /// reported, and a child with no reducer (an alert's) dismisses itself on any of its actions.
  /// ```swift
  /// static let reducer = Reduce<State, Action> { _, _ in .none }
  ///   .scope(State.detail, action: Action.detail, child: Detail.reduce)
  ///   .scope(State.edit, action: Action.edit, child: Edit.reduce)
  ///   .scope(State.alert, action: Action.alert)
  /// ```
  /// - Parameters:
  ///   - embedState: The case of `State` that holds the child's state.
  ///   - embed: The case that wraps the child's actions, named as the function that makes it.
  ///   - extract: The child's action in an action, if it is one; by default, read at run time.
  ///   - child: The child's reducer; by default, one that returns ``Effect/dismiss``.
  /// - Returns: A reducer that runs both.
  public func scope<ChildState, ChildAction>(
    _ embedState: @escaping (ChildState) -> State, action embed: @escaping (ChildAction) -> Action,
    extract: (@MainActor (Action) -> ChildAction?)? = nil,
    child: @escaping Reducer<ChildState, ChildAction> = { _, _ in .dismiss }
  ) -> Self {
    nonisolated(unsafe) let embedState = embedState  // Sound: called on the main actor only.
    let extractState = Self.extract(embedState)
    return embedding(
      \State.self, action: embed, extract: extract, child: child,
      gone: { "the state shows .\(String(cString: caseName($0)!)), not that case" },
      // NB: A case is told by its name's address, the same for each value of the case.
      find: { extractState($0) == nil ? nil : caseName($0).map { Int(bitPattern: $0) } },
      read: extractState,
      modify: { state, change in
        guard var child = extractState(state) else { return }
        change(&child)
        state = embedState(child)
      })
  }

  /// This reducer with an optional child feature at `path`, as a sheet: its effects end in the
  /// `send` that sets it to `nil`, or to another `id` or case; ``Effect/dismiss`` sets it to `nil`,
  /// and an action for it while `nil` is dropped and reported (<doc:NavigationAndChildFeatures>).
  /// ```swift
  /// static let reducer = Reduce(core)
  ///   .ifLet(\.timer, action: Action.timer, child: Timer.reduce)
  /// ```
  /// - Parameters:
  ///   - path: Where the child's state is.
  ///   - embed: The case that wraps the child's actions, named as the function that makes it.
  ///   - extract: The child's action in an action, if it is one; by default, read at run time.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  @inlinable public func ifLet<ChildState, ChildAction>(
    _ path: sending WritableKeyPath<State, ChildState?>,
    action embed: @escaping (ChildAction) -> Action,
    extract: (@MainActor (Action) -> ChildAction?)? = nil,
    child: @escaping Reducer<ChildState, ChildAction>
  ) -> Self {
    nonisolated(unsafe) let path = path  // Sound: read only on the main actor, as the store is.
    return embedding(
      path, action: embed, extract: extract, child: child, gone: { _ in "\(path) is nil" },
      find: { $0[keyPath: path].map { Self.key(of: $0) } }, read: { $0[keyPath: path] },
      modify: { $1(&$0[keyPath: path]!) }, remove: { $0[keyPath: path] = nil })
  }

  /// How `scope` and `ifLet` embed a child: `find` tells who is there (`nil`: no one), `read`,
  /// `modify` and `remove` reach it; a child that `owns` its effects runs them under its place.
  @inlinable func embedding<ChildState, ChildAction>(
    _ path: AnyKeyPath, action embed: @escaping (ChildAction) -> Action,
    extract: (@MainActor (Action) -> ChildAction?)?,
    child: @escaping Reducer<ChildState, ChildAction>, owns: Bool = true,
    gone: @escaping @MainActor (State) -> String = { _ in "" },
    find: @escaping @MainActor (State) -> AnyHashable?,
    read: @escaping @MainActor (State) -> ChildState?,
    modify: @escaping @MainActor (inout State, (inout ChildState) -> Void) -> Void,
    remove: (@MainActor (inout State) -> Void)? = nil
  ) -> Self {
    nonisolated(unsafe) let embed = embed  // Sound: called only on the main actor, as the store is.
    let (parent, extract) = (reduce, extract ?? Self.extract(embed))
    return Self { state, action in
      guard let childAction = extract(action) else { return parent(&state, action) }
      guard find(state) != nil else { return Self.drop(action, gone(state)) }
      var effect = Effect<ChildAction>.none
      modify(&state) { effect = child(&$0, childAction) }
      if case .report = effect.operation { return effect.map { embed($0) } }  // NB: Dropped inside.
      // NB: Who the child is after its reducer ran: what it returns with a new id is the new id's.
      let key = find(state)!
      let isThere = { (state: State) in find(state) == key }
      return Self.embed(
        effect, for: action, in: &state, then: parent, { embed($0) }, at: path, key: key,
        owns: owns, child: { (state: State) in isThere(state) ? read(state) : nil },
        modify: { state, change in if isThere(state) { modify(&state, change) } },
        keys: { state, _ in { [now = find(state).map(TypedEffectID.init)] in $0 == now } },
        remove: remove.map { remove in { if isThere($0) { remove(&$0) } } },
        removeNow: remove.map { remove in { (remove(&$0), true).1 } })
    }
  }

  /// This reducer with a child feature per element of a collection at `path`, each named by its
  /// `id`: its effects end in the `send` that removes it, an action for an `id` not there (or that
  /// two share) is reported, and ``Effect/dismiss`` removes it (<doc:NavigationAndChildFeatures>).
  /// ```swift
  /// static let reducer = Reduce(core)
  ///   .forEach(\.rows, action: Action.row, child: Row.reduce)
  /// ```
  /// - Parameters:
  ///   - path: Where the collection is.
  ///   - embed: The case that wraps an element's id and action.
  ///   - extract: The id and the child's action in an action, if any; by default, read at run time.
  ///   - child: An element's reducer.
  /// - Returns: A reducer that runs both.
  // NB: Disfavored, so that a stack of Identifiable screens is found by the stack's ids.
  @_disfavoredOverload @inlinable public func forEach<Rows: MutableCollection, ChildAction>(
    _ path: sending WritableKeyPath<State, Rows>,
    action embed: @escaping (Rows.Element.ID, ChildAction) -> Action,
    extract: (@MainActor (Action) -> (Rows.Element.ID, ChildAction)?)? = nil,
    child: @escaping Reducer<Rows.Element, ChildAction>
  ) -> Self where Rows.Element: Identifiable, Rows.Element.ID: Sendable {
    forEach(
      path, id: { $0[$1].id },
      remove: { rows, index in
        func removing<Removable: RangeReplaceableCollection>(from rows: Removable) -> Rows {
          var rows = rows
          rows.remove(at: index as! Removable.Index)
          return rows as! Rows
        }
        return (rows as? any RangeReplaceableCollection).map { rows = removing(from: $0) } != nil
      }, action: embed, extract: extract, child: child)
  }

  /// This reducer with a child feature per screen of a navigation stack at `path`, named by the
  /// ids the stack gave, as for rows; ``Effect/dismiss`` pops the screen and those above it.
  /// ```swift
  /// static let reducer = Reduce(core)
  ///   .forEach(\.path, action: Action.path, child: Path.reduce)
  /// ```
  /// - Parameters:
  ///   - path: Where the stack is.
  ///   - embed: The case that wraps a screen's id and action.
  ///   - extract: The screen's id and action in an action, if any; by default, read at run time.
  ///   - child: A screen's reducer.
  /// - Returns: A reducer that runs both.
  @inlinable public func forEach<Screen, ChildAction>(
    _ path: sending WritableKeyPath<State, StackState<Screen>>,
    action embed: @escaping (Int, ChildAction) -> Action,
    extract: (@MainActor (Action) -> (Int, ChildAction)?)? = nil,
    child: @escaping Reducer<Screen, ChildAction>
  ) -> Self {
    nonisolated(unsafe) let path = path  // Sound: read only on the main actor, as the store is.
    return forEach(  // NB: An embedding apart from a `forEach` by the screens' own ids.
      path, at: path.appending(path: \.ids), id: { $0.ids[$1] },
      remove: { ($0.removeSubrange($1...), true).1 }, action: embed, extract: extract, child: child)
  }

  /// Both `forEach`s: `idAt` tells the id at an index, which actions name and whose effects end
  /// when none has it (at `embedding ?? path`); `remove` removes one dismissing itself, or `false`.
  @inlinable func forEach<Rows: MutableCollection, ID: Hashable & Sendable, ChildAction>(
    _ path: sending WritableKeyPath<State, Rows>, at embedding: AnyKeyPath? = nil,
    id idAt: @escaping (Rows, Rows.Index) -> ID, remove: @escaping (inout Rows, Rows.Index) -> Bool,
    action embed: @escaping (ID, ChildAction) -> Action,
    extract: (@MainActor (Action) -> (ID, ChildAction)?)?,
    child: @escaping Reducer<Rows.Element, ChildAction>
  ) -> Self {
    typealias Keyed = [ID: Rows.Element]
    // NB: Sound: called, and the index (`first`, `shared`) used, only on the main actor.
    nonisolated(unsafe) let (embed, idAt, remove) = (embed, idAt, remove)
    nonisolated(unsafe) var (first, shared, rebuilds) = ([ID: Rows.Index](), Set<ID>(), 0)
    nonisolated(unsafe) var older = first  // NB: The index `first` replaced: another list's.
    let (empty, isRange) = (Keyed().values as? Rows, Rows.Indices.self == Range<Int>.self)
    let (parent, extract) = (reduce, extract ?? Self.extract { embed($0.0, $0.1) })
    /// The first row with `id`, in O(1) expected time: by key in a dictionary's values (sound:
    /// frozen structs of one stored property), else from `first` or `older` if a `Range<Int>`.
    func find(_ id: ID, in rows: Rows, look: inout Int) -> Rows.Index? {
      if look >= 0, look == rebuilds { return first[id] }  // NB: The rebuild made for these rows.
      var at = isRange ? first[id] ?? older[id] : nil  // NB: A value may embed two lists at once.
      if empty != nil { at = unsafeBitCast(rows, to: Keyed.self).index(forKey: id) as? Rows.Index }
      if let index = at, index >= rows.startIndex, index < rows.endIndex, idAt(rows, index) == id {
        return index
      }
      (older, first, shared, rebuilds, look) = (first, [:], [], rebuilds + 1, rebuilds + 1)
      for index in rows.indices {
        let id = idAt(rows, index)
        if first[id] == nil { first[id] = index } else { shared.insert(id) }
      }
      return first[id]
    }
    return Self { state, action in
      guard let (id, childAction) = extract(action) else { return parent(&state, action) }
      var look = -1
      guard let index = find(id, in: state[keyPath: path], look: &look) else {
        return Self.drop(action, "\(path) has no element with id \(id)")
      }
      if look >= 0, shared.contains(id) {  // NB: Told when rebuilt, when it is true of these rows.
        miniReduxReport(
          "MiniRedux: \(path) holds more than one element with id \(id); the action for it went "
            + "to the first. Give each element an id of its own, such as a UUID or a counter.")
      }
      let effect: Effect<ChildAction>
      // NB: A dictionary's values moved out, as a key path through a computed property copies them.
      if let empty, case var rows = state[keyPath: path] {
        state[keyPath: path] = empty
        (effect, state[keyPath: path]) = (child(&rows[index], childAction), rows)
      } else {
        effect = child(&state[keyPath: path][index], childAction)
      }
      if case .report = effect.operation { return effect.map { embed(id, $0) } }  // Dropped inside.
      let key = idAt(state[keyPath: path], index)
      let place = { (state: State) -> Rows.Index? in
        var look = -1
        return find(key, in: state[keyPath: path], look: &look)
      }
      return Self.embed(
        effect, for: action, in: &state, then: parent, { embed(key, $0) }, at: embedding ?? path,
        key: key, child: { state in place(state).map { state[keyPath: path][$0] } },
        modify: { if let row = place($0) { $1(&$0[keyPath: path][row]) } },
        keys: { state, _ in
          var (rows, look) = (state[keyPath: path], -1)  // NB: One look at the rows for all keys.
          return { [rows] in find(($0 as! TypedEffectID).value, in: rows, look: &look) != nil }
        },
        remove: { state in
          guard let row = place(state), !remove(&state[keyPath: path], row) else { return }
          Self.dismissed(Effect<ChildAction>.dismiss, by: action, removed: false)
        }, removeNow: { remove(&$0[keyPath: path], index) })
    }
  }

  /// `scope`, with a child whose reducer is a ``Reduce`` value.
  @inlinable public func scope<ChildState, ChildAction>(
    _ path: sending WritableKeyPath<State, ChildState>,
    action embed: @escaping (ChildAction) -> Action,
    extract: (@MainActor (Action) -> ChildAction?)? = nil, child: Reduce<ChildState, ChildAction>
  ) -> Self { scope(path, action: embed, extract: extract, child: child.reduce) }

  /// `scope` on a case of an enum state, with a child whose reducer is a ``Reduce`` value.
  public func scope<ChildState, ChildAction>(
    _ embedState: @escaping (ChildState) -> State, action embed: @escaping (ChildAction) -> Action,
    extract: (@MainActor (Action) -> ChildAction?)? = nil, child: Reduce<ChildState, ChildAction>
  ) -> Self { scope(embedState, action: embed, extract: extract, child: child.reduce) }

  /// `ifLet`, with a child whose reducer is a ``Reduce`` value.
  @inlinable public func ifLet<ChildState, ChildAction>(
    _ path: sending WritableKeyPath<State, ChildState?>,
    action embed: @escaping (ChildAction) -> Action,
    extract: (@MainActor (Action) -> ChildAction?)? = nil, child: Reduce<ChildState, ChildAction>
  ) -> Self { ifLet(path, action: embed, extract: extract, child: child.reduce) }

  /// `forEach`, with elements whose reducer is a ``Reduce`` value.
  @_disfavoredOverload @inlinable public func forEach<Rows: MutableCollection, ChildAction>(
    _ path: sending WritableKeyPath<State, Rows>,
    action embed: @escaping (Rows.Element.ID, ChildAction) -> Action,
    extract: (@MainActor (Action) -> (Rows.Element.ID, ChildAction)?)? = nil,
    child: Reduce<Rows.Element, ChildAction>
  ) -> Self where Rows.Element: Identifiable, Rows.Element.ID: Sendable {
    forEach(path, action: embed, extract: extract, child: child.reduce)
  }

  /// `forEach` on a ``StackState``, with screens whose reducer is a ``Reduce`` value.
  @inlinable public func forEach<Screen, ChildAction>(
    _ path: sending WritableKeyPath<State, StackState<Screen>>,
    action embed: @escaping (Int, ChildAction) -> Action,
    extract: (@MainActor (Action) -> (Int, ChildAction)?)? = nil, child: Reduce<Screen, ChildAction>
  ) -> Self { forEach(path, action: embed, extract: extract, child: child.reduce) }

  /// Extracts from an action the payload of the case `embed` makes, telling cases apart by name:
  /// learned from the first action with a `Payload`, and those of other cases as they come.
  @usableFromInline nonisolated static func extract<Whole, Payload>(
    _ embed: @escaping (Payload) -> Whole
  ) -> @MainActor (Whole) -> Payload? {
    nonisolated(unsafe) let embed = embed  // Sound: called only on the main actor, as the store is.
    nonisolated(unsafe) var (name, others) = (UnsafePointer<CChar>?.none, [UnsafePointer<CChar>]())
    return { action in
      guard let actionName = caseName(action) else {
        preconditionFailure(
          "MiniRedux: cannot read the case of \(Whole.self) \(action): an embedding needs an enum "
            + "with reflection metadata. Pass `extract:`, a closure extracting the child's action.")
      }
      guard actionName == name || name == nil && !others.contains(actionName) else { return nil }
      let payload = casePayload(of: action, as: Payload.self)
      name = name ?? payload.flatMap { caseName(embed($0)) }
      // NB: Only a case with no payload is surely not the child's before its name is learned.
      if name == nil, Mirror(reflecting: action).children.isEmpty { others.append(actionName) }
      if name == nil, let inner = casePayload(of: action, as: Any.self),
        let deep = casePayload(of: inner, as: Payload.self), caseName(embed(deep)) == actionName
      {
        miniReduxReport(
          "MiniRedux: \(dumpLine(action)) reached no child: its embed closure nests two cases; "
            + "embed one case per feature, the inner in the outer's reducer, or pass `extract:`.")
      }
      return actionName == name ? payload : nil
    }
  }

  /// Who a present child is: its `id` if `Identifiable`; an enum's case, and its value's `id`.
  @usableFromInline static func key<Child>(of child: Child) -> AnyHashable {
    if let child = child as? any Identifiable { return id(of: child) }
    guard let name = caseName(child).map({ AnyHashable(String(cString: $0)) }) else { return true }
    return casePayload(of: child, as: (any Identifiable).self).map { [name, id(of: $0)] } ?? name
  }
  private static func id(of child: some Identifiable) -> AnyHashable { child.id }

  /// An effect that reports `action` dropped, as `reason`, named as the view sent it.
  @usableFromInline static func drop(_ action: Action, _ reason: String) -> Effect<Action> {
    Effect(
      operation: .report(action) {
        "MiniRedux: dropped \(dumpLine($0)), as \(reason): the child it is for is gone. A view, "
          + "or a parent's effect, that sends after the child was removed is the usual cause."
      })
  }

  /// Reports a collection that could not remove a child, or what it returned with `.dismiss`.
  @usableFromInline static func dismissed<ChildAction>(
    _ effect: Effect<ChildAction>, by action: Action, removed: Bool
  ) {
    var effect = effect  // NB: A child of an enum case's `scope` returns it under the case's id.
    while case .cancellable(_, _, let parts) = effect.operation { effect = parts.first }
    if removed, case .dismiss = effect.operation { return }
    miniReduxReport(
      removed
        ? "MiniRedux: the child returned .dismiss with other effects for \(dumpLine(action)); "
          + "they ended with it, unstarted. To send the parent an action first, return "
          + ".concatenate(.send(action), .dismiss)."
        : "MiniRedux: .dismiss for \(dumpLine(action)) did nothing, as its collection cannot "
          + "remove elements; embed an Array, or another RangeReplaceableCollection.")
  }
}

/// `Reduce(parent).scope(state, action: embed, extract: action, child: child)`, as a function:
/// the form that nests (``Reduce/scope(_:action:extract:child:)-(WritableKeyPath<State,ChildState>,_,_,Reducer<ChildState,ChildAction>)``).
@inlinable public func scope<State, Action, ChildState, ChildAction>(
  _ parent: @escaping Reducer<State, Action>,
  state path: sending WritableKeyPath<State, ChildState>,
  action toChildAction: @escaping @MainActor (Action) -> ChildAction?,
  embed: @escaping (ChildAction) -> Action, child: @escaping Reducer<ChildState, ChildAction>
) -> Reducer<State, Action> {
  Reduce(parent).scope(path, action: embed, extract: toChildAction, child: child).reduce
}

/// `Reduce(parent).ifLet(state, action: embed, extract: action, child: child)`, as a function:
/// the form that nests (``Reduce/ifLet(_:action:extract:child:)-(_,_,_,Reducer<ChildState,ChildAction>)``).
@inlinable public func ifLet<State, Action, ChildState, ChildAction>(
  _ parent: @escaping Reducer<State, Action>,
  state path: sending WritableKeyPath<State, ChildState?>,
  action toChildAction: @escaping @MainActor (Action) -> ChildAction?,
  embed: @escaping (ChildAction) -> Action, child: @escaping Reducer<ChildState, ChildAction>
) -> Reducer<State, Action> {
  Reduce(parent).ifLet(path, action: embed, extract: toChildAction, child: child).reduce
}

/// `Reduce(parent).forEach(state, action: embed, extract: action, child: child)`, as a function:
/// the form that nests (``Reduce/forEach(_:action:extract:child:)-(_,_,_,Reducer<Rows.Element,ChildAction>)``).
@inlinable public func forEach<State, Action, Rows: MutableCollection, ChildAction>(
  _ parent: @escaping Reducer<State, Action>, state path: sending WritableKeyPath<State, Rows>,
  action toChildAction: @escaping @MainActor (Action) -> (Rows.Element.ID, ChildAction)?,
  embed: @escaping (Rows.Element.ID, ChildAction) -> Action,
  child: @escaping Reducer<Rows.Element, ChildAction>
) -> Reducer<State, Action> where Rows.Element: Identifiable, Rows.Element.ID: Sendable {
  Reduce(parent).forEach(path, action: embed, extract: toChildAction, child: child).reduce
}

/// The screens of a navigation stack, bottom first, each with an id given when it is pushed,
/// which no other screen ever gets: what ``Reduce/forEach(_:action:extract:child:)-(_,_,_,Reducer<Screen,ChildAction>)``
/// embeds, with an action case such as `path(id: Int, Path.Action)`.
///
/// Ids come from one counter for the process, as TCA's do, so a new screen is never named as an old
/// one, even in a stack assigned anew; a ``TestStore`` counts from 0, the rest of a test from 2^30.
/// ```swift
/// var path: StackState<Path.State> = [.list]
/// path.append(.detail(Detail.State()))
/// path.append(.detail(Detail.State()))
/// let (list, top) = (path.ids[0], path.ids[2])
/// path.pop(from: top)  // pops the screen `top` names and every screen above it
/// path.pop(to: list)  // pops every screen above `list`
/// path[id: list] = nil  // pops exactly that screen
/// print(path.isEmpty)  // true
/// ```
nonisolated public struct StackState<Element>: RandomAccessCollection, MutableCollection,
  RangeReplaceableCollection, ExpressibleByArrayLiteral
{
  /// The id of each screen, bottom first: a `NavigationStack`'s path.
  public private(set) var ids: [Int] = []
  private var elements: [Element?] = []  // NB: Optional, for `[id:]` to change one in place.
  /// An empty stack.
  public init() {}
  /// A stack of `elements`, bottom first, each with a new id.
  public init(arrayLiteral elements: Element...) { append(contentsOf: elements) }
  public var startIndex: Int { 0 }
  public var endIndex: Int { elements.count }
  public subscript(position: Int) -> Element {
    get { elements[position]! }
    _modify { yield &elements[position]! }  // NB: In place: a copy copies what the screen holds.
  }

  /// Replaces the screens in `range` with `new` ones, which get new ids.
  public mutating func replaceSubrange(_ range: Range<Int>, with new: some Collection<Element>) {
    elements.replaceSubrange(range, with: new.map(Optional.some))
    ids.replaceSubrange(range, with: new.map { _ in miniReduxReporter.get().nextStackID() })
  }

  /// The screen with `id`, if it is in the stack: what a scoped store of one screen reads. Set,
  /// it changes that screen, and `nil` pops exactly it; a screen not in the stack stays out.
  /// ```swift
  /// let screen = store.scope(state: { $0.path[id: id] }, action: { .path(id: id, $0) })
  /// ```
  public subscript(id id: Int) -> Element? {
    get { ids.firstIndex(of: id).flatMap { elements[$0] } }
    _modify {
      var absent: Element?  // NB: What a screen not in the stack gets: it stays out.
      guard let index = ids.firstIndex(of: id) else { yield &absent; return }
      defer { if elements[index] == nil { removeSubrange(index...index) } }
      yield &elements[index]
    }
  }

  /// Swaps two screens, with their ids, as reversing and `removeAll(where:)` do. (Sorting moves
  /// screens without their ids: a stack is ordered by pushes, not sorted.)
  public mutating func swapAt(_ i: Int, _ j: Int) { _ = (elements.swapAt(i, j), ids.swapAt(i, j)) }

  /// Pops the screen with `id`, if it is in the stack, and every screen above it.
  public mutating func pop(from id: Int) { ids.firstIndex(of: id).map { removeSubrange($0...) } }

  /// Pops every screen above the one with `id`, if it is in the stack.
  public mutating func pop(to id: Int) { ids.firstIndex(of: id).map { removeLast(count - $0 - 1) } }
}

// NB: Synthesized: equal screens under the same ids, the ids compared first.
extension StackState: Equatable where Element: Equatable {}
extension StackState: Sendable where Element: Sendable {}
extension StackState: CustomReflectable {
  /// Each screen under its id, as `#1`: what a failing test step's diff shows.
  public var customMirror: Mirror {
    let children = zip(ids, elements).map { (label: "#\($0)" as String?, value: $1! as Any) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension Optional {
  /// The payload of the case `embed` makes, if this holds that case, as TCA's `[case: \.edit]`
  /// reads it: set, it changes the payload, or clears it with `nil`; another case stays as it is.
  /// ```swift
  /// state.destination[case: Destination.State.edit]?.title = "Draft"
  /// state.path[id: id][case: Path.State.detail]?.taps += 1
  /// ```
  /// - Parameter embed: The case, named as the function that makes it: `Path.State.detail`.
  public subscript<Payload>(case embed: (Payload) -> Wrapped) -> Payload? {
    get {
      guard let self, let payload = casePayload(of: self, as: Payload.self) else { return nil }
      return caseName(self) != nil && caseName(self) == caseName(embed(payload)) ? payload : nil
    }
    _modify {
      var payload = self[case: embed]
      let isCase = payload != nil
      if isCase { self = nil }  // NB: Moved out, so that changing it copies nothing of it.
      defer { if isCase { self = payload.map(embed) } }
      yield &payload
    }
  }
}

// MARK: - Printing changes
/// A reducer that runs `reducer`, then prints the action and a diff of the state it changed (`-`
/// before, `+` after) to standard output: for an app's debug builds, and scripts.
/// ```swift
/// let store = Store(initialState: Counter.State(), printChanges(Counter.reduce))
/// store.send(.incrementTapped)
/// // received .incrementTapped
/// //   Counter.State(
/// // -   count: 0
/// // +   count: 1
/// //   )
/// ```
/// - Parameters:
///   - reducer: The reducer to run.
///   - write: Where each action's text goes, as to a logger's test; by default, standard output.
/// - Returns: A reducer that runs `reducer` and writes what it changed.
public func printChanges<State, Action>(
  _ reducer: @escaping Reducer<State, Action>,
  to write: @escaping @MainActor (String) -> Void = { print($0) }
) -> Reducer<State, Action> {
  { state, action in
    let (before, effect, after) = (dumpLines(state), reducer(&state, action), dumpLines(state))
    let change = before == after ? " (no change)" : "\n" + dumpDiff(before, after)
    write("received \(dumpLine(action))" + change)
    return effect
  }
}

/// The payload of `value`'s enum case, if a `Payload`; one labelled value is reflected as a tuple.
nonisolated func casePayload<Payload>(of value: Any, as _: Payload.Type) -> Payload? {
  guard let child = Mirror(reflecting: value).children.first else { return nil }
  if let payload = child.value as? Payload { return payload }
  let tuple = Mirror(reflecting: child.value)
  guard tuple.displayStyle == .tuple, tuple.children.count == 1 else { return nil }
  return tuple.children.first!.value as? Payload
}

nonisolated func dumpLine(_ value: Any) -> String { dumpLines(value, width: .max)[0] }

/// The lines of `old` and `new` as a diff (`-` old, `+` new), unchanged runs cut to 3 at each end.
nonisolated func dumpDiff(_ old: [String], _ new: [String]) -> String {
  // NB: n·m at worst: the common ends are skipped, and a large rest is all removed, then added.
  let head = zip(old, new).prefix { $0 == $1 }.count
  let tail = zip(old[head...].reversed(), new[head...].reversed()).prefix { $0 == $1 }.count
  let (removed, added) = (old[head..<(old.count - tail)], new[head..<(new.count - tail)])
  let diff = removed.count * added.count <= 250_000 ? added.difference(from: removed) : nil
  var (gone, came) = diff == nil ? (Set(removed.indices), Set(added.indices)) : ([], [])
  for case .remove(let offset, _, _) in diff?.removals ?? [] { gone.insert(head + offset) }
  for case .insert(let offset, _, _) in diff?.insertions ?? [] { came.insert(head + offset) }
  let (before, after) = (max(0, head - 3), min(old.count, removed.endIndex + 3))
  var (lines, i, j) = (before > 0 ? ["  … \(before) unchanged lines"] : [], before, before)
  while i < after || j < added.endIndex {
    let (isRemoved, isAdded) = (gone.contains(i), !gone.contains(i) && came.contains(j))
    lines.append(isRemoved ? "- " + old[i] : isAdded ? "+ " + new[j] : "  " + old[i])
    (i, j) = (isAdded ? i : i + 1, isRemoved ? j : j + 1)
  }
  if gone.isEmpty && came.isEmpty { lines.append("(both print the same, but == says they differ)") }
  if after < old.count { lines.append("  … \(old.count - after) unchanged lines") }
  return lines.joined(separator: "\n")
}

/// `value` as lines; a composite is on one line if it fits in `width` (by default, not the top one).
nonisolated func dumpLines(_ value: Any, width: Int = 0, depth: Int = 0) -> [String] {
  if depth > 20 { return [String(describing: value)] }
  let mirror = Mirror(reflecting: value)
  func children(labelled: Bool) -> [[String]] {
    // NB: A class's fields come after its superclasses' fields, which its own mirror leaves out.
    sequence(first: mirror, next: \.superclassMirror).reversed().flatMap(\.children).map { child in
      let lines = dumpLines(child.value, width: width == .max ? .max : 60, depth: depth + 1)
      guard labelled, let label = child.label, !label.hasPrefix(".") else { return lines }
      return ["\(label): \(lines[0])"] + lines.dropFirst()
    }
  }
  switch mirror.displayStyle {
  case .optional:
    return mirror.children.first.map { dumpLines($0.value, width: width, depth: depth) } ?? ["nil"]
  case .collection: return dumpWrap("[", children(labelled: false), width)
  case .set, .dictionary:  // NB: Sorted, as equal ones may list their elements in other orders.
    return dumpWrap("[", children(labelled: false).sorted { $0.joined() < $1.joined() }, width)
  case .tuple: return dumpWrap("(", children(labelled: true), width)
  case .enum:
    guard let child = mirror.children.first, let label = child.label else { return [".\(value)"] }
    let inner = dumpLines(child.value, width: width, depth: depth + 1)
    return Mirror(reflecting: child.value).displayStyle == .tuple
      ? [".\(label)\(inner[0])"] + inner.dropFirst() : dumpWrap(".\(label)(", [inner], width)
  case .struct, .class:
    guard !(value is CustomStringConvertible || value is CustomDebugStringConvertible) else {
      return [String(describing: value)]
    }
    return dumpWrap(typeName(type(of: value)) + "(", children(labelled: true), width)
  default: return [String(reflecting: value)]
  }
}

nonisolated private func dumpWrap(_ open: String, _ items: [[String]], _ width: Int) -> [String] {
  let close = open.hasSuffix("[") ? "]" : ")"
  let singles = items.compactMap { $0.count == 1 ? $0[0] : nil }
  let joined = open + singles.joined(separator: ", ") + close
  if singles.count == items.count, joined.count <= width || items.isEmpty { return [joined] }
  return [open] + items.flatMap { $0.map { "  " + $0 } } + [close]
}

// MARK: - Testing
/// A store for tests: it makes you account for each change of the state, each action effects send
/// back and each effect still running. What is not accounted for fails the step: a test records it
/// at the step's line, and a script gets a thrown ``TestStoreFailure`` (<doc:TestingAFeature>).
/// ```swift
/// @Test @MainActor func incrementAndLoadFact() async throws {
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
@MainActor public final class TestStore<State: Equatable, Action: Sendable> {
  /// The state as of the last step asserted (as TCA's); inside a step's closure, what it starts from.
  public var state: State { shown ?? received.first?.before ?? store.state }
  /// How long `receive` and `finish` wait for effects when you pass no timeout: one second.
  public var timeout: Duration = .seconds(1)
  /// Whether every change and received action must be asserted; ``Exhaustivity/on`` by default.
  public var exhaustivity = Exhaustivity.on
  /// An action (`nil`: a child's dismissal), the state before and after, and the next stack id.
  private typealias Step = (action: Action?, before: State, after: State, stackIDs: Int)
  private typealias Update = ((inout State) throws -> Void)?
  private typealias Sent = (task: StoreTask, label: String)
  // NB: Made last in `init`, as its reducer holds this test store weakly, not to keep it alive.
  private var store: Store<State, Action>!
  private let createdAt: StepLocation
  // `executor` runs the effects, so that steps can tell they ran; `screenIDs` numbers the stacks.
  private let (executor, screenIDs) = (TestExecutor(), stackIDs(from: 0))
  // Once it failed, a release with work left says nothing more; `reporter`'s fail the next step.
  private var (hasFailed, reporter) = (false, miniReduxReporter.get())
  // What MiniRedux reported on the main actor since the step; the test's sends that started effects.
  private var (dropped, sent) = ([String](), [Sent]())
  // NB: Sound: used on the main actor, but for `deinit`'s read, when nothing else can reach it.
  nonisolated(unsafe) private var received: [Step] = []  // What effects caused, in order.
  private var (lastState, shown) = (State?.none, State?.none)  // Last recorded; what a step shows.
  // The waits in progress, and whether the one in progress timed out.
  private var (waiters, isTimedOut) = ([CheckedContinuation<Void, Never>](), false)
  private var isRunning: Bool { sent.contains { $0.task.count > 0 } }

  /// Creates a test store that runs `reducer` as a ``Store`` would, recording what happens.
  /// ```swift
  /// let store = TestStore(initialState: Counter.State(), Counter.reduce)
  /// ```
  /// - Parameters:
  ///   - initialState: The state the store starts with.
  ///   - initialAction: Reduced at once, with no assertion; what its effects send must be received.
  ///   - fileID: The file where a failure is recorded if the store is released with work left.
  ///   - filePath: The path of that file.
  ///   - line: The line where the test store is made.
  ///   - column: The column where the test store is made.
  ///   - reducer: The feature's reducer.
  ///   - context: Runs each reduction inside it, as a ``Store``'s `context` does.
  public init(
    initialState: @autoclosure () -> State, initialAction: Action? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column, _ reducer: @escaping Reducer<State, Action>,
    context: (@MainActor (_ reduce: () -> Void) -> Void)? = nil
  ) {
    createdAt = (fileID, filePath, line, column)
    reporter.report = { [report = reporter.report, weak self] message, fails in
      let held = isMainQueue() && MainActor.assumeIsolated { self?.dropped.append(message) != nil }
      if !held { report(message, fails) }  // NB: Else the step's failure carries it.
    }
    // The test's stacks count from 0, and its store's effects run on `executor`.
    (reporter.nextStackID, reporter.makeExecutor) = (screenIDs.next, { [executor] in executor })
    lastState = miniReduxReporter.withValue(reporter, operation: initialState)
    let recording: Reducer<State, Action> = { [weak self, screenIDs] state, action in
      let (before, ids) = (state, screenIDs.peek())
      self?.noteDismissal(state)
      defer { self?.record(action, before, state, ids) }  // Once `reducer` has run.
      return reducer(&state, action)
    }
    store = miniReduxReporter.withValue(reporter) {
      Store(initialState: lastState!, recording, context: context)
    }
    store.subscribe { [weak self] in self?.noteDismissal($0) }
    if let initialAction { _ = start(initialAction, sentAt: "the initialAction") }
  }

  /// Creates a test store of a feature whose reducer is a ``Reduce`` value; see
  /// ``init(initialState:initialAction:fileID:filePath:line:column:_:context:)-(_,_,_,_,_,_,Reducer<State,Action>,_)``.
  /// ```swift
  /// let store = TestStore(initialState: Inbox.State(), Inbox.reducer)
  /// ```
  public convenience init(
    initialState: @autoclosure () -> State, initialAction: Action? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column, _ reducer: Reduce<State, Action>,
    context: (@MainActor (_ reduce: () -> Void) -> Void)? = nil
  ) {
    self.init(
      initialState: initialState(), initialAction: initialAction, fileID: fileID,
      filePath: filePath, line: line, column: column, reducer.reduce, context: context)
  }

  deinit {
    let report = { @MainActor [sent, received, exhaustivity, createdAt, hasFailed, dropped] in
      let left = ([Self.unaccounted(sent, received, exhaustivity)] + dropped.map { "  " + $0 })
        .filter { !$0.isEmpty }.joined(separator: "\n")
      guard !hasFailed, !left.isEmpty else { return }
      let message =
        "MiniRedux: the TestStore created at \(createdAt.fileID):\(createdAt.line) was released "
        + "with this not accounted for; end the test with `try await store.finish()`."
      guard !miniReduxReporter.get().recordIssue(message + "\n" + left, createdAt) else { return }
      miniReduxReport(message + " The test process will exit with status 1.\n" + left, fails: true)
    }
    guard !isMainQueue() else { return MainActor.assumeIsolated(report) }
    // NB: Off the main thread, a task checks later, keeping the store and its effects alive.
    Task { @MainActor [store] in withExtendedLifetime(store) { report() } }
  }

  /// Sends `action` and checks that `update` turns the state before it into the state after it
  /// (with ``Exhaustivity/off``: that `update` leaves the state after it unchanged).
  /// ```swift
  /// try await store.send(.incrementTapped) { $0.count = 1 }
  /// ```
  /// - Throws: A ``TestStoreFailure`` if the state is wrong or, with ``Exhaustivity/on``, actions
  ///   received earlier were not asserted; then nothing is sent and they stay to be received. In a
  ///   test, the framework records the failure, the step goes on, and they can still be received.
  @discardableResult public func send(
    _ action: Action, assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async throws -> StoreTask {
    let (name, at) = ("send(\(dumpLine(action)))", (fileID, filePath, line, column))
    await Task.yield()  // NB: Lets what effects already sent reach the main actor, to be received.
    if exhaustivity == .off { received.removeAll() }
    if !received.isEmpty {  // NB: They stay, to be received, as TCA keeps them.
      let unasserted = received.map { "\n  " + Self.describe($0.action) }.joined()
      try fail("\(name): actions received earlier were not asserted with receive:" + unasserted, at)
    }
    let (task, step) = start(action, sentAt: "sent at \(fileID):\(line)")
    // NB: No step if a `context` skipped `reduce` (reported), or spun a nested run loop.
    if let step { try check(update, step, name, at) } else { try failIfDropped(name, at) }
    if task.count > 0 { await executor.settle(before: .now, within: timeout) }  // NB: Past hops.
    return task
  }

  /// Waits for the next action effects send, which must be `expected` (``Exhaustivity/off`` skips
  /// others), and checks the state as `send` does; with no effect running, it fails at once.
  /// ```swift
  /// try await store.receive(.factLoaded("1 is odd")) {
  ///   $0.isLoading = false
  ///   $0.fact = "1 is odd"
  /// }
  /// ```
  /// `Action`'s `Equatable` conformance may be isolated to the main actor (<doc:TestingAFeature>).
  public func receive(
    _ expected: Action, timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    func isEqual<Value: Equatable>(_ lhs: Value, _ rhs: Any) -> Bool { (rhs as? Value) == lhs }
    let (shown, at) = (dumpLine(expected), (fileID, filePath, line, column))
    guard let equatable = expected as? any Equatable else {
      return try fail(
        "receive(\(shown)): \(String(reflecting: Action.self)) is not Equatable; declare it "
          + "`enum Action: Equatable`, or receive with a closure", at)
    }
    try await receive(shown, timeout, update, at) { $0.map { isEqual(equatable, $0) } ?? false }
  }

  /// Waits for the next action an effect sent, which `matches` must accept, and checks its change
  /// of the state; for actions that are not `Equatable`.
  /// ```swift
  /// try await store.receive({ if case .factLoaded = $0 { true } else { false } }) {
  ///   $0.isLoading = false
  ///   $0.fact = "1 is odd"
  /// }
  /// ```
  public func receive(
    _ matches: (Action) -> Bool, timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    let at = (fileID, filePath, line, column)
    try await receive("an action that matches", timeout, update, at) { $0.map(matches) ?? false }
  }

  /// Waits for the next action, which must be the case `embed` names, and checks the state; for
  /// actions that are not `Equatable`, such as one with a `Result` whose failure is `any Error`.
  /// ```swift
  /// try await store.receive(Search.Action.searchResponse) { $0.results = ["swift"] }
  /// ```
  /// - Parameters:
  ///   - embed: The case, named as the function that makes it: `Action.searchResponse`.
  ///   - timeout: How long to wait; by default, the test store's ``timeout``.
  ///   - update: Turns the state before the action into the state after it.
  ///   - fileID: Where the step is, where its failure is recorded.
  ///   - filePath: The path of that file.
  ///   - line: The line of the step.
  ///   - column: The column of the step.
  public func receive<Payload>(
    _ embed: (Payload) -> Action, timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    try await receive(
      embed, where: { _ in true }, timeout: timeout, assert: update, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Waits for the next action an effect sent, which must be the case `embed` names, with a
  /// payload that `check` accepts, and checks its change of the state.
  /// ```swift
  /// try await store.receive(Search.Action.searchResponse, where: { (try? $0.get()) == [] })
  /// ```
  /// - Parameters:
  ///   - embed: The case, named as the function that makes it: `Action.searchResponse`.
  ///   - check: Whether the payload is the one expected.
  ///   - timeout: How long to wait; by default, the test store's ``timeout``.
  ///   - update: Turns the state before the action into the state after it.
  ///   - fileID: Where the step is, where its failure is recorded.
  ///   - filePath: The path of that file.
  ///   - line: The line of the step.
  ///   - column: The column of the step.
  public func receive<Payload>(
    _ embed: (Payload) -> Action, where check: (Payload) -> Bool, timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    let expected = "the case of \(Action.self) that carries a \(Payload.self)"
    let at = (fileID, filePath, line, column)
    try await receive(expected, timeout, update, at) { $0[case: embed].map(check) ?? false }
  }

  /// Waits for a child's dismissal of itself in a step of its own (after a concatenation's step, or
  /// from ``Send/dismiss()``) and checks the state: TCA's `receive(\.destination.dismiss)`.
  /// ```swift
  /// try await store.send(.destination(.edit(.saveTapped)))
  /// try await store.receive(.destination(.edit(.delegate(.saved("Hi"))))) { $0.saved = ["Hi"] }
  /// try await store.receiveDismiss { $0.destination = nil }
  /// ```
  /// - Parameters:
  ///   - timeout: How long to wait; by default, the test store's ``timeout``.
  ///   - update: Turns the state before the dismissal into the state after it.
  ///   - fileID: Where the step is, where its failure is recorded.
  ///   - filePath: The path of that file.
  ///   - line: The line of the step.
  ///   - column: The column of the step.
  public func receiveDismiss(
    timeout: Duration? = nil, assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async throws {
    let at = (fileID, filePath, line, column)
    try await receive(Self.describe(nil), timeout, update, at) { $0 == nil }
  }

  /// Forgets the actions received so far; those that effects send later must still be received.
  /// ```swift
  /// let task = try await store.send(.factTapped) { $0.isLoading = true }
  /// await task.finish()
  /// store.skipReceivedActions()
  /// ```
  public func skipReceivedActions() { received.removeAll() }

  /// Waits for this store's effects to end: those running after `timeout` fail, listed by their
  /// `send`, and are cancelled; with ``Exhaustivity/on``, unasserted received actions fail too.
  /// ```swift
  /// try await store.finish()
  /// ```
  public func finish(
    timeout: Duration? = nil, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async throws {
    let (timeout, at) = (timeout ?? self.timeout, (fileID, filePath, line, column))
    try await wait(timeout) { false }
    try failIfDropped("finish()", at)
    let unaccounted = Self.unaccounted(sent, received, exhaustivity, after: timeout)
    for (task, _) in sent { task.cancel() }
    (received, sent) = ([], [])
    if !unaccounted.isEmpty { try fail("finish(): not accounted for:\n" + unaccounted, at) }
  }

  /// Sends `action` as the test's; returns its task, kept while it runs, and its step, if reduced.
  private func start(_ action: Action, sentAt: String) -> (StoreTask, Step?) {
    sent.removeAll { $0.task.count == 0 }
    let (old, task) = (received.count, miniReduxReporter.withValue(reporter) { store.send(action) })
    let step = received[old...].firstIndex { $0.action != nil }  // NB: Its own, not its effects'.
    if task.count > 0 {
      sent.append((task, "\(dumpLine(action)) (\(sentAt))"))
      Task { [weak self] in  // Wakes a wait when the effects end; never cancels them.
        await task.finish(timeout: longestWait)
        self?.wake()
      }
    }
    return (task, step.map { received.remove(at: $0) })
  }

  private func receive(
    _ expected: String, _ timeout: Duration?, _ update: Update, _ at: StepLocation,
    _ matches: (Action?) -> Bool
  ) async throws {
    let timeout = timeout ?? self.timeout
    var (skipped, next, isMatch) = ([Step](), Step?.none, false)
    // NB: One wait, which looks at each action as it comes: its timeout bounds them all.
    try await wait(timeout) {
      while next == nil, !received.isEmpty {
        let step = received.removeFirst()
        isMatch = matches(step.action)
        if isMatch || exhaustivity == .on { next = step } else { skipped.append(step) }
      }
      return next != nil
    }
    if let next {
      let shown = Self.describe(next.action)
      if !isMatch { return try fail("receive: expected \(expected), but received \(shown)", at) }
      executor.drain(within: timeout)
      return try check(update, next, "receive(\(shown))", at)
    }
    received.insert(contentsOf: skipped, at: 0)  // NB: One that fails skips nothing, as TCA's.
    let names = skipped.prefix(20).map { Self.describe($0.action) }.joined(separator: ", ")
    let got = skipped.isEmpty ? "nothing" : "only " + names + (skipped.count > 20 ? ", …" : "")
    var why = isRunning ? "within \(timeout)" : "and no effect is running"
    if isRunning, let sleepers = executor.drain(within: timeout), sleepers > 0 {
      why += ", while \(sleepers) sleep\(sleepers == 1 ? "s" : "") on a TestClock: advance it"
    }
    try fail("receive: expected \(expected), but received \(got) \(why)", at)
  }

  private func check(_ update: Update, _ step: Step, _ name: String, _ at: StepLocation) throws {
    try failIfDropped(name, at)
    guard exhaustivity == .on || update != nil else { return }
    var (expected, reporter) = (exhaustivity == .on ? step.before : step.after, self.reporter)
    // NB: Pushes in `update` get the ids the step's own pushes got.
    (shown, reporter.nextStackID) = (expected, stackIDs(from: step.stackIDs).next)
    defer { shown = nil }
    try miniReduxReporter.withValue(reporter) { try update?(&expected) }
    guard expected != step.after else {
      guard exhaustivity == .on, update != nil, step.before == step.after else { return }
      return try fail(
        "\(name): expected the state to change, but it did not; when an action changes "
          + "nothing, pass no closure", at)
    }
    let problem =
      exhaustivity == .off
      ? "the state does not hold what the closure asserts"
      : update == nil
        ? "the state changed, but no closure asserted it" : "the state is not as expected"
    let diff = dumpDiff(dumpLines(expected), dumpLines(step.after))
    try fail("\(name): \(problem) (- expected, + actual):\n\(diff)", at)
  }

  private func failIfDropped(_ step: String, _ at: StepLocation) throws {
    defer { dropped = [] }
    if !dropped.isEmpty { try fail("\(step): " + dropped.joined(separator: "\n"), at) }
  }

  private func fail(_ message: String, _ at: StepLocation) throws {
    hasFailed = true
    guard !miniReduxReporter.get().recordIssue(message, at) else { return }
    throw TestStoreFailure(message: message, fileID: "\(at.fileID)", line: at.line)
  }

  private func record(_ action: Action?, _ before: State, _ after: State, _ stackIDs: Int) {
    lastState = (after, received.append((action, before, after, stackIDs))).0
    wake()
  }
  private func noteDismissal(_ state: State) {
    if let lastState, lastState != state { record(nil, lastState, state, screenIDs.peek()) }
  }
  private func wake(timedOut: Bool = false) {
    isTimedOut = isTimedOut || timedOut
    while !waiters.isEmpty { waiters.removeFirst().resume() }
  }

  /// Waits until `done` (asked at each wake) holds, no effect runs or time is up, or throws.
  private func wait(_ timeout: Duration, until done: () -> Bool) async throws {
    isTimedOut = false
    // NB: Cancelled with the wait or as it returns; wakes then, or times it out.
    async let _ = wake(timedOut: sleep(discountingStalls: timeout))
    while !done(), isRunning, !isTimedOut {
      await withCheckedContinuation { waiters.append($0) }
      try Task.checkCancellation()
    }
  }

  /// The effects of `sent` still running and, with ``Exhaustivity/on``, the actions `received`.
  private static func unaccounted(
    _ sent: [Sent], _ received: [Step], _ exhaustivity: Exhaustivity, after timeout: Duration? = nil
  ) -> String {
    let after = timeout.map { " after \($0)" } ?? ""
    // NB: At release, as in TCA, an effect the test cancelled is accounted for, unwinding or not.
    let effects = sent.filter { (timeout == nil ? $0.task.active : $0.task.count) > 0 }
      .map { "  effects of \($0.label) still running\(after)" }
    let hint = "  End each: cancel one that runs until cancelled, advance a TestClock one sleeps on"
    let actions = received.map { "  \(describe($0.action)) received but not asserted" }
    let lines = effects + (effects.isEmpty || timeout == nil ? [] : [hint])
    return (lines + (exhaustivity == .on ? actions : [])).joined(separator: "\n")
  }
  private static func describe(_ action: Action?) -> String {
    action.map(dumpLine) ?? "a child's dismissal of itself"
  }
}

/// Whether a ``TestStore`` requires every change of the state and received action asserted:
/// `on`, every change must be described, every received action asserted, in order; `off`, only
/// what is asserted must hold, and `receive` skips actions until one matches.
/// ```swift
/// store.exhaustivity = .off
/// try await store.send(.factTapped)
/// try await store.receive(.factLoaded("1 is odd")) { $0.fact = "1 is odd" }
/// ```
public enum Exhaustivity: Sendable { case on, off }

/// Why a ``TestStore`` step failed: where, what was expected and what happened, with a diff;
/// thrown where no test framework runs, as in a script (in a test, the framework records it).
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
  public nonisolated var description: String { "\(fileID):\(line): \(message)" }
}

typealias StepLocation = (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)

// MARK: - Time in tests
/// A clock whose sleeps return at once, moving `now` on to their deadline: a test need not wait.
/// ```swift
/// let clock = ImmediateTestClock()
/// let store = TestStore(initialState: Search.State(), Search.reducer(clock: clock) { [$0] })
/// try await store.send(.queryChanged("swift")) { $0.query = "swift" }
/// try await store.receive(.resultsLoaded(["swift"])) { $0.results = ["swift"] }
/// ```
public final class ImmediateTestClock: Clock, @unchecked Sendable {
  private let queue = DispatchQueue(label: "MiniRedux.ImmediateTestClock")
  private var instant = ContinuousClock.now  // On `queue` only: the class is Sendable.

  /// A clock that starts at the present instant of a `ContinuousClock`.
  public init() {}
  public var now: ContinuousClock.Instant { queue.sync { instant } }
  public var minimumResolution: Duration { .zero }

  /// Moves `now` on to `deadline`, if it is later, and returns, unless the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    queue.sync { instant = max(instant, deadline) }
    await Task.yield()
  }
}

/// A clock that moves only when a test advances it, and waits for a ``TestStore``'s effects, so
/// a debounce or a timer test needs no real sleep and no polling (<doc:TestingAFeature>).
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Search.State(), Search.reducer(clock: clock) { [$0] })
/// try await store.send(.queryChanged("swift")) { $0.query = "swift" }
/// await clock.advance(by: .milliseconds(300))
/// try await store.receive(.resultsLoaded(["swift"])) { $0.results = ["swift"] }
/// ```
/// > Note: Each test store runs its effects on a serial queue of its own from macOS 15, iOS 18,
/// > tvOS 18, watchOS 11 and visionOS 2 on, and on Linux; before, `advance(by:)` does not wait.
public final class TestClock: Clock, @unchecked Sendable {
  // NB: A queue, not a `Mutex`, whose thread-local storage the `swift` interpreter cannot load.
  private let queue = DispatchQueue(label: "MiniRedux.TestClock")
  /// On `queue` only: the class is Sendable. `executors`: of the test stores that slept on it.
  private var state = (
    now: Instant.now, nextID: 0, executors: [ObjectIdentifier: @Sendable () -> TestExecutor?](),
    sleepers: [Int: (deadline: Instant, wake: CheckedContinuation<Void, Never>)]()
  )
  /// How long an advance waits for effects that keep running, and where the test fails if they do.
  @MainActor var patience = Duration.seconds(10)
  let createdAt: StepLocation

  /// A clock that starts at the present instant of a `ContinuousClock`.
  /// - Parameters:
  ///   - fileID: The file where a failure is recorded if effects outlast the clock's patience.
  ///   - filePath: The path of that file.
  ///   - line: The line where the clock is made.
  ///   - column: The column where the clock is made.
  public init(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) { createdAt = (fileID, filePath, line, column) }
  public var now: ContinuousClock.Instant { queue.sync { state.now } }
  public var minimumResolution: Duration { .zero }

  /// Suspends until an advance reaches `deadline`; a deadline already past returns at once, and
  /// one that is now, a zero-length sleep, waits for the next advance, `advance()` included.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let executor = DispatchQueue.getSpecific(key: TestExecutor.key)  // Its test store's, if any.
    let current = executor?()
    current?.sleepers += 1
    defer { current?.sleepers -= 1 }
    let id = queue.sync { (state.nextID, state.nextID += 1).0 }
    try await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.sync {  // NB: Registers the sleeper's executor (held weakly, by its closure) with it.
          state.executors = state.executors.filter { $0.value() != nil }
          if let current, let executor { state.executors[ObjectIdentifier(current)] = executor }
          guard deadline >= state.now, !Task.isCancelled else { return continuation.resume() }
          state.sleepers[id] = (deadline, continuation)
        }
      }
      try Task.checkCancellation()
    } onCancel: {
      queue.sync { state.sleepers.removeValue(forKey: id) }?.wake.resume()
    }
  }

  /// Moves time on by `duration` (never back), deadline by deadline; at each, the effects of the
  /// test stores that sleep on this clock (not others') run until each sleeps again, ends or waits
  /// on something else. Effects that run on for ten seconds are reported; time moves on without them.
  /// ```swift
  /// let clock = TestClock()  // given to the feature, as its reducer's clock
  /// await clock.advance(by: .seconds(1))  // a one-second timer ticks once
  /// await clock.advance()  // what sleeps for zero, or until now, wakes
  /// ```
  /// - Parameter duration: How far to move; by default, not at all.
  @MainActor public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline` (not back, if it is past), as ``advance(by:)`` does.
  /// ```swift
  /// let clock = TestClock()  // given to the feature, as its reducer's clock
  /// await clock.advance(to: clock.now.advanced(by: .seconds(5)))
  /// ```
  /// - Parameter deadline: The instant to move to.
  @MainActor public func advance(to deadline: Instant) async {
    // NB: The time left for effects is measured for the whole advance.
    let (end, deadline) = (max(deadline, now), ContinuousClock.now + patience)
    var (settled, since) = (true, queue.sync { state.nextID })  // NB: Later sleeps until now wait.
    repeat {
      let executors = queue.sync { state.executors.values.compactMap { $0() } }
      for executor in executors { settled = await executor.settle(before: deadline) && settled }
    } while queue.sync(execute: {
      let waiting = state.sleepers.filter { $0.key < since || $0.value.deadline > state.now }
      let next = min(waiting.values.map(\.deadline).min() ?? end, end)
      if next > state.now { (state.now, since) = (next, state.nextID) }
      let due = waiting.filter { $0.value.deadline <= state.now }.keys.sorted()
      for id in due { state.sleepers.removeValue(forKey: id)?.wake.resume() }
      return !due.isEmpty
    })
    guard !settled else { return }
    fail(
      "MiniRedux: TestClock.advance(by:) waited \(patience) for effects that keep running, or block "
        + "their thread, instead of sleeping, ending or waiting; it moved time on without them.")
  }

  /// Moves time to each deadline something sleeps until, until nothing sleeps on the clock, for
  /// effects that end after a few sleeps; a timer that never stops is reported after ten seconds.
  /// ```swift
  /// let clock = TestClock()  // given to the feature, as its reducer's clock
  /// try await store.send(.startCountdown)
  /// await clock.run()
  /// ```
  @MainActor public func run() async {
    let deadline = ContinuousClock.now + patience
    while let next = nextDeadline, ContinuousClock.now < deadline { await advance(to: next) }
    guard nextDeadline != nil else { return }
    fail(
      "MiniRedux: TestClock.run() moved time for \(patience) and something still sleeps on the "
        + "clock, as a timer that never stops does; advance it by a duration instead.")
  }
  private var nextDeadline: Instant? { queue.sync { state.sleepers.values.map(\.deadline).min() } }
  private func fail(_ message: String) { reportFailure(message, at: createdAt) }
}

/// Records `message` as the running test's failure at `location`; elsewhere, reports it, to fail.
nonisolated func reportFailure(_ message: String, at location: StepLocation) {
  guard !miniReduxReporter.get().recordIssue(message, location) else { return }
  miniReduxReport(message + " The process will exit with status 1.", fails: true)
}

/// Sleeps `duration` of time in which the main actor was free (`false` if cancelled): a stall (a
/// test beside this one holding the main actor) counts 100 ms at most, so it times out no test.
@MainActor func sleep(discountingStalls duration: Duration) async -> Bool {
  var (left, last) = (duration, ContinuousClock.now)
  while left > .zero {
    guard (try? await Task.sleep(for: min(left, .milliseconds(100)))) != nil else { return false }
    (left, last) = (left - min(.now - last, .milliseconds(100)), .now)
  }
  return true
}

extension StoreTask {
  /// In a test, a task that ends waiter `id`'s wait after `timeout`, failing at `location`.
  func watchdog(_ id: Int, _ timeout: Duration, at location: StepLocation) -> Task<Void, Never>? {
    guard recordTestIssue(nil, at: location) else { return nil }
    return Task { [weak self] in
      guard await sleep(discountingStalls: timeout), let self, count > 0 else { return }
      reportFailure(
        "MiniRedux: finish() waited \(timeout) for the effects of this send and cancelled the "
          + "\(count) in flight. An effect waiting on a TestClock the test does not advance, or a "
          + "gate it does not open, is the usual cause; else pass finish(timeout:).", at: location)
      stopWaiting(id)
    }
  }
}

/// A serial queue for one test store's effects, so its steps and a `TestClock` can tell they ran.
nonisolated final class TestExecutor: Sendable {
  static let key = DispatchSpecificKey<@Sendable () -> TestExecutor?>()  // The queue's executor.
  private let queue = DispatchQueue(label: "MiniRedux.TestExecutor")
  // NB: Sound: used on the queue only, where the jobs run. Jobs run; effects asleep on a TestClock.
  nonisolated(unsafe) var (ran, sleepers) = (0, 0)

  init() { queue.setSpecific(key: Self.key, value: { [weak self] in self }) }  // NB: Its own queue.

  /// Blocks until its jobs, and those they enqueue, suspend, or a pass waits `timeout`: `sleepers`.
  @discardableResult func drain(within timeout: Duration) -> Int? {
    let seconds = min(timeout, .seconds(1_000_000)) / .seconds(1)
    nonisolated(unsafe) var (sleepers, ran, last) = (Int?.none, 0, -1)  // NB: Sound: waited for.
    for _ in 0..<100 where ran != last {  // NB: A pass per hop: a task group's child, a yield.
      let read = DispatchWorkItem { (last, sleepers, ran) = (ran, self.sleepers, self.ran) }
      queue.async(execute: read)
      guard read.wait(timeout: .now() + seconds) == .success else { return nil }
    }
    return sleepers
  }

  /// Whether the jobs enqueued, and what they sent to the main actor, ran and enqueued no more; it
  /// gives up past `deadline` after 100 passes that found new jobs, or on a pass `bound` long.
  // NB: Via the FIFO main queue, not the main actor's resumption order (HowItWorks: Time in tests).
  @MainActor @discardableResult func settle(
    before deadline: ContinuousClock.Instant, within bound: Duration = .seconds(600)
  ) async -> Bool {
    let (passes, pass) = AsyncStream.makeStream(of: Int?.self)
    var (ran, changes, iterator) = (-1, 0, passes.makeAsyncIterator())
    while true {
      // NB: The inner closure, and so its capture of `ran`, is made on the queue.
      queue.async { DispatchQueue.main.async { [ran = self.ran] in pass.yield(ran) } }
      let timer = Task { if await sleep(discountingStalls: bound) { pass.yield(nil) } }
      defer { timer.cancel() }
      guard let now = await iterator.next() ?? nil else { return false }
      if now == ran { return true }
      (ran, changes) = (now, changes + 1)
      guard changes < 100 || ContinuousClock.now < deadline else { return false }
    }
  }
}

// NB: The runtime runs a test's effects here where a task takes an executor (macOS 15 on).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
nonisolated extension TestExecutor: TaskExecutor {
  func enqueue(_ job: consuming ExecutorJob) {
    queue.async { [job = UnownedJob(job)] in
      self.ran += 1
      job.runSynchronously(on: self.asUnownedTaskExecutor())
    }
  }
}

#if canImport(Combine)
  import Combine
  // NB: SwiftUI reads the main-actor `objectWillChange` there; `@preconcurrency` checks the rest.
  extension Store: @preconcurrency ObservableObject {
    /// Publishes once per `send`, after its actions were reduced, for `@ObservedObject`.
    public var objectWillChange: ObservableObjectPublisher {
      core.attach(self)
      if let willChange = layers.willChange as? ObservableObjectPublisher { return willChange }
      let willChange = ObservableObjectPublisher()  // NB: Made when first read; `notify` sends it.
      (layers.willChange, isTracked) = (willChange, true)
      return willChange
    }
  }
#endif
