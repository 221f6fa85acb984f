// MiniRedux · Copyright (c) 2026 The MiniRedux authors · MIT License: https://opensource.org/license/mit
// Effect.swift: what an effect is, and how a store runs it. Store.swift holds the store.
// The core, in the order an effect meets it:
//   `Effect`: making, composing and cancelling effects; `Send`, how an operation sends back.
//   What an effect is made of: `Effect.Operation`, `Parts`, `EffectID`.
//   The runtime of a root store: the send loop (`Runtime.send`, `drain`), the interpreter
//   (`start`), the effects in flight (`StoreTask`, `RunningEffect` and its `Phase`, `Registry`),
//   and where misuse is reported (`miniReduxReport`).
// Beyond the core: mapping, time, child features' part of the runtime, tests and their `Reporter`,
// Combine. A layer reaches in only where a line says "The one way in" (HowItWorks' list).
//
// Two relations, and no third:
// - Containment: a `cancellable`, a `merge` and a `concatenate` contain their parts. In flight,
//   each `.run` and `.concatenate`, and each `merge` under ids, is a `RunningEffect` whose
//   `parent` is what contains it: the effects in flight form a tree. An id covers what its
//   wrapper contains; a concatenation moves on once what its step contains has ended.
// - Causation: a `send` and everything its effects sent back is its lineage, a `StoreTask`, which
//   waits for and cancels them. An action an effect sends is reduced in the effect's lineage,
//   never inside the effect: what that action starts is not contained in it.

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Work a reducer asks its store to do once it has changed the state: a value, which the store
/// starts right after the reducer returns (<doc:Guarantees>, <doc:EffectsAndCancellation>).
/// ```swift
/// case .getQuoteTapped:
///   state = "Loading..."
///   return .run { send in
///     let quote = try await loadQuote()
///     await send(.quoteLoaded(quote))
///   }
///   .cancellable(id: CancelID.load, cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline let operation: Operation
  @usableFromInline nonisolated init(operation: Operation) { self.operation = operation }

  // MARK: - Making effects
  /// An effect that does nothing: what a reducer returns when an action only changes state.
  /// ```swift
  /// case .incrementTapped:
  ///   state.count += 1
  ///   return .none
  /// ```
  nonisolated public static var none: Self { Self(operation: .none) }

  /// An effect that runs `operation` off the main actor; each `await send(action)` in it hops to
  /// the main actor and reduces `action` before returning, unless the effect was cancelled.
  /// ```swift
  /// case .loadUser:
  ///   return .run { send in
  ///     await send(.userLoaded(try await api.user()))
  ///   } catch: { error, send in
  ///     await send(.loadFailed("\(error)"))
  ///   }
  /// ```
  /// - Parameters:
  ///   - priority: The priority of the operation's task.
  ///   - operation: The work, which gets a ``Send`` to send actions back.
  ///   - handler: Gets what `operation` throws unless cancelled; without one, it goes to stderr.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @concurrent @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (
      @concurrent @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void
    )? = nil
  ) -> Self { Self(operation: .run(priority, operation, handler, isPause: false)) }

  /// An effect that sends `action` back, reduced before the `send` that produced it returns.
  /// ```swift
  /// case .saveTapped:
  ///   return .send(.delegate(.saved))
  /// ```
  public static func send(_ action: Action) -> Self { Self(operation: .send(action)) }

  // MARK: - Composing effects
  /// An effect that starts all of `effects` at once, and ends when all of them have ended.
  /// ```swift
  /// return .merge(.send(.started), .run { send in await send(.loaded(try await load())) })
  /// ```
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// An effect that starts all of `effects` at once, and ends when all of them have ended.
  /// ```swift
  /// return .merge(
  ///   queries.map { query in
  ///     .run { send in await send(.results(try await api.search(query))) }
  ///   })
  /// ```
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    composite(effects, Operation.merge)
  }

  /// An effect that starts each of `effects` once the previous one, and what it contains, has
  /// ended (not what its actions started); once cancelled, it starts no more.
  /// ```swift
  /// return .concatenate(.run { _ in try await save() }, .send(.saved))
  /// ```
  public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

  /// An effect that starts each of `effects` once the previous one has ended.
  /// ```swift
  /// return .concatenate(drafts.map { draft in .run { _ in try await save(draft) } })
  /// ```
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    composite(effects, Operation.concatenate)
  }

  private static func composite(_ parts: some Sequence<Self>, _ op: (Parts) -> Operation) -> Self {
    let parts = parts.filter { !$0.isNone }
    return parts.count > 1 ? Self(operation: op(Parts(parts))) : parts.first ?? .none
  }

  // MARK: - Cancellation and time
  /// This effect, with everything it contains registered under `id` the moment it starts, so that
  /// `.cancel(id:)`, even later in the same reducer output, finds it. What its actions start is
  /// not contained in it; `cancelInFlight` never cancels this effect, nor a wrapper around it.
  /// Ids compare by type and value, per store (<doc:Guarantees>).
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  // NB: Inlinable, for a client to make the id's box with its type known (HowItWorks' table).
  @inlinable
  public func cancellable(id: sending some Hashable, cancelInFlight: Bool = false) -> Self {
    cancellable(TypedEffectID(id), cancelInFlight: cancelInFlight)
  }

  @inlinable func cancellable(_ id: EffectID, cancelInFlight: Bool = false) -> Self {
    if isNone && !cancelInFlight { return self }
    return Self(operation: .cancellable(id, cancelInFlight: cancelInFlight, Parts(self, [])))
  }

  /// An effect that cancels the effects running under `id`; what their actions started keeps
  /// running, as part of the ``StoreTask`` it descends from.
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  public static func cancel(id: sending some Hashable) -> Self {
    Self(operation: .cancel(TypedEffectID(id)))
  }
}

// MARK: - Send
/// Sends actions from an effect's operation back into its store, on the main actor; it does
/// nothing once the effect is cancelled or the store is gone.
/// ```swift
/// return .run { send in
///   for await value in values {
///     await send(.received(value))
///   }
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
  let effect: RunningEffect
  /// The store's way in, for all its effects; a closure, as a child's `Send` wraps its parent's.
  let deliver: @MainActor @Sendable (Action, RunningEffect) -> Void

  /// Sends `action`, reduced before this returns (if called during a send, as from a listener,
  /// queued for that send), unless the effect was cancelled (or has ended).
  @MainActor public func callAsFunction(_ action: Action) {
    // NB: A cancelled operation may still get here; cancellation must win.
    if !Task.isCancelled { deliver(action, effect) }
  }
}

// MARK: - What an effect is made of
extension Effect {
  // NB: `indirect`: a layout free of `Action` (HowItWorks' table); an action may carry an effect.
  @usableFromInline enum Operation: Sendable {
    case none
    indirect case send(Action)
    /// A `.run`, or a debounce's pause (`isPause`): it sends nothing and is no effect of its own.
    indirect case run(TaskPriority?, Body, Catch?, isPause: Bool)
    /// Misuse found reducing an action, reported as it starts, with the action as the root got it.
    indirect case report(Action, @Sendable (_ action: Any) -> String)
    case cancel(EffectID)
    /// Removes the child feature that returns it: the layer of child features interprets it.
    case dismiss
    case cancellable(EffectID, cancelInFlight: Bool, Parts)
    case merge(Parts), concatenate(Parts)
  }

  @usableFromInline typealias Body = @concurrent @Sendable (Send<Action>) async throws -> Void
  @usableFromInline typealias Catch = @concurrent @Sendable (any Error, Send<Action>) async -> Void

  /// The parts of a composite effect: a `cancellable`'s one part is `first`, with no array.
  // NB: `deinit` releases a deep tree in a loop, not recursively; the parts change only there.
  @usableFromInline nonisolated final class Parts: @unchecked Sendable {
    @usableFromInline private(set) var (first, rest): (Effect, [Effect])
    @usableFromInline let height: Int
    @inlinable init(_ first: Effect, _ rest: [Effect]) {
      (self.first, self.rest) = (first, rest)
      height = 1 + rest.reduce(first.parts?.height ?? 0) { max($0, $1.parts?.height ?? 0) }
    }
    convenience init(_ effects: [Effect]) { self.init(effects[0], Array(effects.dropFirst())) }
    var effects: [Effect] { [first] + rest }
    deinit {
      // NB: A shallow tree, the usual one, goes the ordinary way (HowItWorks' table); one that
      // the loop below emptied has nothing left (an array of its `.none` costs a metadata lookup).
      guard height > 64, first.parts != nil || !rest.isEmpty else { return }
      var pending = effects
      (first, rest) = (.none, [])
      while var effect = pending.popLast() {
        guard var parts = effect.parts else { continue }
        effect = .none
        guard isKnownUniquelyReferenced(&parts) else { continue }
        pending += parts.effects
        (parts.first, parts.rest) = (.none, [])
      }
    }
  }

  @usableFromInline nonisolated var parts: Parts? {
    switch operation {
    case .cancellable(_, _, let parts), .merge(let parts), .concatenate(let parts): parts
    default: nil
    }
  }

  @usableFromInline var isNone: Bool { if case .none = operation { true } else { false } }

  // NB: `@concurrent` runs this and the operation on the global executor in every compile mode.
  @concurrent static func perform(
    _ body: Body, _ handler: Catch?, _ send: Send<Action>, startedBy origin: Action
  ) async {
    do { try await body(send) } catch {
      // NB: Cancellation is silent: an error thrown because of it is no failure.
      guard !Task.isCancelled, !(error is CancellationError) else { return }
      if let handler { return await handler(error, send) }
      // NB: On the main actor, before the effect ends, so that a test store's next step sees it.
      await MainActor.run {
        miniReduxReport(
          "MiniRedux: an effect started by \(origin) threw \(error), and it has no catch: "
            + "handler. Pass `catch:` to .run to turn errors into actions.")
      }
    }
  }
}

/// The ids of the `cancellable`s around an effect in flight, the first inline (HowItWorks' table).
typealias EffectIDs = (first: EffectID?, rest: [EffectID])

/// A cancellation id, compared by its type and its value: a box of one, or a child feature's place.
// NB: A typed box compares the value with no dynamic cast (HowItWorks' table).
@usableFromInline class EffectID: Hashable, @unchecked Sendable {
  /// Whether its effects end when a part of the state goes (a child's place: `endGoneChildren`).
  var watchesState: Bool { false }
  @usableFromInline init() {}
  func isEqual(to other: EffectID) -> Bool { false }  // NB: Subclasses compare and hash values.
  @usableFromInline func hash(into hasher: inout Hasher) {}
  @usableFromInline static func == (lhs: EffectID, rhs: EffectID) -> Bool {
    lhs === rhs || lhs.isEqual(to: rhs)
  }
}

// NB: Unchecked: a value the public API takes as `sending`, only hashed and compared after.
@usableFromInline class TypedEffectID<Value: Hashable>: EffectID, @unchecked Sendable {
  @usableFromInline let value: Value
  @inlinable init(_ value: Value) { self.value = value }
  @usableFromInline override func hash(into hasher: inout Hasher) {
    _ = (hasher.combine(ObjectIdentifier(Value.self)), hasher.combine(value))
  }
  override func isEqual(to other: EffectID) -> Bool {
    type(of: other) == Self.self && value == unsafeDowncast(other, to: Self.self).value
  }
}

// MARK: - The runtime of a root store
nonisolated let keptCapacity = 16  // NB: Room a table keeps however little it holds.
/// Whether a table is under a quarter full: then it is copied to fit, so that what a store holds
/// follows the work in flight, not its largest burst (a copy per 3n removals, at most).
nonisolated func isRoomy(_ room: Int, _ count: Int) -> Bool { room > max(keptCapacity, 4 * count) }
/// Removes `array[i]`, moving the last element there: the one it returns, if any.
nonisolated func swapRemove<T>(_ array: inout [T], at i: Int) -> T? {
  let last = array.removeLast()
  if isRoomy(array.capacity, array.count) { array = array.map { $0 } }
  return i < array.count ? (array[i] = last, last).1 : nil
}

/// A root store's runtime: its state, send loop and interpreter; as a `Registry`, its effects.
@MainActor final class Runtime<State, Action: Sendable>: Registry, StoreCore {
  private(set) var state: State
  private let reducer: Reducer<State, Action>
  private let context: (@MainActor (_ reduce: () -> Void) -> Void)?  // What each reduction runs in.
  // NB: The one way in for testing: in a test, effects' operations run on its `TestExecutor`.
  private let executor = miniReduxReporter.get().makeExecutor()
  weak var store: Store<State, Action>?
  /// Whether the reducer has the state (no one else may read it), a send runs, observers are owed.
  private var (isReducing, isSending, mustNotify) = (false, false, false)
  /// The actions waiting and each one's lineage (`nil`: `current`); two arrays (HowItWorks' table).
  private var (queuedActions, queuedTasks): ([Action], [StoreTask?]) = ([], [])
  /// The lineage of the send in progress, made as its first effect starts; what to `advance`.
  private var (current, toAdvance): (StoreTask?, [RunningEffect]) = (nil, [])
  /// How a `Send` reaches this runtime: what a running effect sent is reduced in its lineage.
  private lazy var deliver: @MainActor @Sendable (Action, RunningEffect) -> Void = {
    [weak self] action, effect in
    guard let self else { return }
    if effect.isRunning {
      _ = send(action, in: effect.lineage)
    } else if effect.phase == .finished {
      miniReduxReport(
        "MiniRedux: an effect sent \(action) after its operation had returned; it was dropped. "
          + "Call send only while the operation runs.")
    }
  }

  init(
    _ state: State, _ reducer: @escaping Reducer<State, Action>,
    context: (@MainActor (_ reduce: () -> Void) -> Void)?
  ) { (self.state, self.reducer, self.context) = (state, reducer, context) }
  static var name: String { "Store<\(typeName(State.self)), \(typeName(Action.self))>" }

  func read() -> State {
    guard !isReducing else {
      fatalError(  // NB: Reading the state here would crash as an exclusivity violation.
        "MiniRedux: the state of a \(Self.name) was read inside its own "
          + "reducer (store.state, a scoped store's state, subscribe or scope on a scoped store). "
          + "Inside the reducer, use the `inout` state given; subscribe and scope outside it.")
    }
    return state
  }

  func send(_ action: Action) -> StoreTask {
    let task = send(action, in: nil) ?? .empty
    // NB: A test's effects, on its executor, reach their first suspension before `send` returns.
    if let executor, task.count > 0 { executor.drain(within: .seconds(1)) }
    return task
  }

  /// Reduces `action` and what follows in `lineage`, else in one its first effect makes; or queues.
  func send(_ action: Action, in lineage: StoreTask?) -> StoreTask? {
    guard !isSending else {
      enqueue(action, lineage)
      return nil
    }
    (isSending, current) = (true, lineage)
    inContext { reduce(action, in: lineage) }
    return drain()
  }

  /// Runs `body` in the store's context, if any, so that the tasks it starts get its task-locals.
  private func inContext(_ body: () -> Void) {
    guard let context else { return body() }
    var calls = 0
    context { if (calls, calls += 1).0 == 0 { body() } }
    if calls != 1 {
      miniReduxReport("MiniRedux: a store's context called reduce \(calls) times; call it once.")
    }
  }

  private func reduce(_ action: Action, in lineage: StoreTask?) {
    (isReducing, mustNotify) = (true, true)
    let effect = reducer(&state, action)
    isReducing = false
    if !effect.isNone { start(effect, in: lineage, at: nil, origin: action) }
    // NB: The one way in for a layer: ids of child features, which end with their child.
    if hasWatched { endGoneChildren() }
  }

  private func enqueue(_ action: Action, _ lineage: StoreTask?) {
    lineage?.count += 1
    _ = (queuedActions.append(action), queuedTasks.append(lineage))
  }

  /// Reduces the queue, moves on containers, tells observers; ends the send, returning its lineage.
  @discardableResult private func drain(causedBy effect: RunningEffect? = nil) -> StoreTask? {
    // NB: Outside a send, what `effect` caused (an observer's send, too) is in its lineage.
    if let effect { current = effect.lineage.wasCancelled ? nil : effect.lineage }
    isSending = true
    var (reduced, moved) = (0, 0)
    while true {
      if reduced < queuedTasks.count {
        let (lineage, action) = (queuedTasks[reduced], queuedActions[reduced])
        if lineage?.wasCancelled != true { inContext { reduce(action, in: lineage) } }
        lineage?.leave()
        reduced += 1
      } else if moved < toAdvance.count {
        advance(toAdvance[(moved, moved += 1).0])
      } else {
        if mustNotify { store?.notify() }
        if reduced == queuedTasks.count && moved == toAdvance.count { break }
      }
    }
    if reduced > 0 {
      queuedActions.removeAll(keepingCapacity: queuedActions.capacity <= keptCapacity)
      queuedTasks.removeAll(keepingCapacity: queuedTasks.capacity <= keptCapacity)
    }
    if moved > 0 { toAdvance.removeAll(keepingCapacity: toAdvance.capacity <= keptCapacity) }
    defer { (isSending, current, mustNotify) = (false, nil, false) }
    return current
  }

  // NB: The one way in for a layer's effects: `Send.dismiss()` of a child feature.
  override func dismiss(from effect: RunningEffect) { dismissChild(from: effect, origin: nil) }

  /// Moves on a container whose contents have all ended: at once, unless a send is in progress.
  override func emptied(_ container: RunningEffect) {
    toAdvance.append(container)
    if !isSending { drain(causedBy: container) }
  }

  // NB: Through its store, which is calling; inside the reducer, the send's end calls the listener.
  func subscribe(_ listener: @escaping @MainActor (State) -> Void) -> StoreSubscription {
    defer {
      let isOwn = (!isSending, isSending = true).0  // NB: A send the first call makes waits for it.
      if !isReducing { listener(state) }
      if isOwn { drain() }
    }
    return store!.listen(listener)
  }

  // MARK: - The interpreter
  private func start(
    _ effect: Effect<Action>, in lineage: StoreTask?, at container: RunningEffect?, origin: Action
  ) {
    var (effect, ids) = unwrap(effect, at: container)
    // NB: A lone `.run` or `.send`, maybe under ids, the usual effect, skips the stack.
    guard effect.parts != nil else {
      return startLeaf(effect, ids: ids, in: lineage, at: container, origin: origin)
    }
    // NB: An explicit stack, so that no effect is too deep; a `nil` effect closes its group.
    var (pending, container) = ([(Effect<Action>?, RunningEffect?)](), container)
    while true {
      switch effect.operation {
      case .merge(let parts):
        var inner = container
        if ids.first != nil, let lineage = admit(lineage, in: container) {
          inner = RunningEffect(lineage: lineage, parent: container, ids: ids, isGroup: true)
          register(inner!)
          pending.append((nil, inner))
        }
        // NB: By index: `reversed()` put Array's bounds check out of line (HowItWorks' table).
        for index in parts.rest.indices.reversed() { pending.append((parts.rest[index], inner)) }
        pending.append((parts.first, inner))
      case .concatenate(let parts):
        // NB: Unstarted, it is its first step alone, so that a `.cancel(id:)` there applies.
        guard let lineage = admit(lineage, in: container) else {
          pending.append((parts.first, container))
          break
        }
        let concatenation = Concatenation(lineage, container, ids, parts, origin: origin)
        register(concatenation)
        toAdvance.append(concatenation)
        if let step = concatenation.nextStep() { pending.append((step, concatenation)) }
      default: startLeaf(effect, ids: ids, in: lineage, at: container, origin: origin)
      }
      var part: Effect<Action>?
      while part == nil {
        guard let (next, inner) = pending.popLast() else { return }
        (part, container) = (next, inner)
        if next == nil, let group = inner, group.started() { emptied(group) }
      }
      (effect, ids) = unwrap(part!, at: container)
    }
  }

  /// The effect inside the `cancellable`s around `effect`, and their ids; cancels as they ask.
  private func unwrap(_ effect: Effect<Action>, at container: RunningEffect?)
    -> (Effect<Action>, EffectIDs)
  {
    var (effect, ids) = (effect, EffectIDs(nil, []))
    while case .cancellable(let id, let cancelInFlight, let parts) = effect.operation {
      if cancelInFlight { cancel(id, sparing: container) }
      if case .none = ids.first { ids.first = id } else { ids.rest.append(id) }
      effect = parts.first
    }
    return (effect, ids)
  }

  private func startLeaf(
    _ effect: Effect<Action>, ids: EffectIDs, in lineage: StoreTask?, at container: RunningEffect?,
    origin: Action
  ) {
    switch effect.operation {
    case .send(let action):
      // NB: A concatenation cancelled by its own step starts nothing more, a send included.
      if container?.isRunning ?? true { enqueue(action, lineage) }
    case .cancel(let id): cancel(id, sparing: nil)
    case .report(let action, let message): miniReduxReport(message(action))
    case .dismiss: dismissChild(from: container, origin: origin)  // NB: The one way in for a child.
    case .run(let priority, let body, let handler, let isPause):
      guard let lineage = admit(lineage, in: container) else { return }
      let running = RunningEffect(lineage: lineage, parent: container, ids: ids, isPause: isPause)
      let send = Send(effect: running, deliver: deliver)
      register(running)  // NB: Before its task starts, so that its end finds it registered.
      let task =  // NB: Written out in each branch (HowItWorks' table).
        if let executor, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
          // NB: In a test, nonisolated, so that its first job runs on the executor `send` drains.
          Task(executorPreference: executor, priority: priority) { @concurrent in
            await Effect.perform(body, handler, send, startedBy: origin)
            await MainActor.run { running.end(in: running.lineage.registry) }
          }
        } else if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
          // NB: On the main actor, as this method: starts in `send`; the operation leaves it.
          Task.immediate(priority: priority) {
            await Effect.perform(body, handler, send, startedBy: origin)
            running.end(in: running.lineage.registry)
          }
        } else {
          Task(priority: priority) {
            await Effect.perform(body, handler, send, startedBy: origin)
            running.end(in: running.lineage.registry)
          }
        }
      if running.slot >= 0 { inFlight[running.slot].task = task }  // NB: Unless it ended already.
    default: break
    }
  }

  /// The lineage a new effect in `container` joins (`current` if `nil`); `nil` if one is cancelled.
  private func admit(_ lineage: StoreTask?, in container: RunningEffect?) -> StoreTask? {
    if lineage == nil, current == nil { current = StoreTask(self) }
    let lineage = lineage ?? current!
    return lineage.wasCancelled || container?.isRunning == false ? nil : lineage
  }

  /// Moves on a container whose contents ended: a concatenation to its next step; else it ends.
  private func advance(_ container: RunningEffect) {
    guard container.children.isEmpty, container.phase < .finished else { return }
    guard let concatenation = container as? Concatenation<Action>, concatenation.isRunning,
      let step = concatenation.nextStep()
    else { return container.end(in: self) }
    toAdvance.append(concatenation)
    inContext { start(step, in: container.lineage, at: container, origin: concatenation.origin) }
  }
}

// MARK: - Effects in flight
/// The effects of one ``Store/send(_:)``, and of the actions they sent back: await or cancel them.
/// ```swift
/// let timer = store.send(.startTimer)
/// // Later, when the screen that started it goes away:
/// timer.cancel()
/// ```
// NB: Causation's unit; a send that starts no effect returns `empty`, and allocates none.
@MainActor public final class StoreTask: Hashable, Sendable {
  /// Effects in flight and actions queued; effects not cancelled nor ended; whether one finished;
  /// whether ``cancel()`` was called, or the store's release: nothing new starts or is reduced.
  fileprivate(set) var (count, active, finishedOne, wasCancelled) = (0, 0, false, false)
  private(set) weak var registry: Registry?
  /// The tasks waiting in ``finish()``, each resumed once: by `leave`, or by `stopWaiting`.
  private var (waiters, nextWaiterID) = ([(id: Int, wake: UnsafeContinuation<Void, Never>)](), 0)
  init(_ registry: Registry?) { self.registry = registry }
  static let empty = StoreTask(nil)

  /// Whether the effects were cancelled: by ``cancel()``, or each by its id before one finished
  /// (a debounce's pause is not an effect of its own). A task with no effects counts as cancelled.
  /// ```swift
  /// let timer = store.send(.startTimer)
  /// timer.cancel()
  /// print(timer.isCancelled)  // true
  /// ```
  public var isCancelled: Bool { wasCancelled || !finishedOne && active == 0 }

  /// Cancels the effects: nothing they send is reduced any more, the actions they queued are
  /// dropped, and effects their actions would start do not start.
  public func cancel() {
    wasCancelled = true
    // NB: Its effects are found by a search: a list of them would cost each effect.
    registry?.inFlight.filter { $0.effect.lineage === self }.forEach { registry?.cancel($0.effect) }
  }

  /// Waits until the effects have ended; cancelling the waiting task cancels them (in a main-actor
  /// task, next) and ends the wait. In a test, after `timeout` it fails the test at its line and
  /// cancels them (<doc:TestingAFeature>).
  /// ```swift
  /// await store.send(.refresh).finish()
  /// print(store.state.items)  // what the refresh loaded
  /// ```
  /// - Parameters:
  ///   - timeout: How long it waits in a test; outside one (an app, a script), it has no bound.
  ///   - fileID: Where the wait is, where a test records its failure.
  ///   - filePath: The path of that file.
  ///   - line: The line of the wait.
  ///   - column: The column of the wait.
  public func finish(
    timeout: Duration = .seconds(10), fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    guard count > 0 else { return }
    let id = (nextWaiterID, nextWaiterID += 1).0
    // NB: The one way in for the layer of testing: a test's wait is bounded.
    let timer = watchdog(id, timeout, at: (fileID, filePath, line, column))
    await withTaskCancellationHandler {
      // NB: Unsafe (HowItWorks' table); sound, as each is in `waiters` once, until resumed.
      await withUnsafeContinuation { waiters.append((id, $0)) }
    } onCancel: {
      Task { @MainActor in self.stopWaiting(id) }
    }
    timer?.cancel()
  }

  func stopWaiting(_ id: Int) {
    guard waiters.contains(where: { $0.id == id }) else { return }  // NB: Resumed: effects ended.
    cancel()
    waiters.firstIndex { $0.id == id }.map { waiters.remove(at: $0) }?.wake.resume()
  }

  func leave() {
    count -= 1
    guard count == 0 else { return }
    for waiter in (waiters, waiters = []).0 { waiter.wake.resume() }  // NB: Each runs later.
  }

  nonisolated public static func == (lhs: StoreTask, rhs: StoreTask) -> Bool { lhs === rhs }
  nonisolated public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// An effect in flight, a node of containment's tree: a `.run` or a pause and its task, a
/// ``Concatenation`` and its current step, or a group (a `merge` under ids).
@MainActor class RunningEffect {
  /// Whether it is a group (it contains, and counts in no lineage), or a debounce's pause.
  let (isGroup, isPause): (Bool, Bool)
  /// What contains it: a concatenation whose step it is part of, or a group.
  private(set) var parent: RunningEffect?
  /// Its lineage, its depth in containment's tree, and the ids around it inside its parent.
  let (lineage, depth, ids): (StoreTask, Int, EffectIDs)
  /// Its life, in order, moved forward only by `started`, `cancel`, `end`: a group `starting` its
  /// parts, `running`, `cancelled` (unregistered, sends dropped), ended `finished` or `unwound`.
  enum Phase: Comparable { case starting, running, cancelled, finished, unwound }
  private(set) var phase: Phase
  var isRunning: Bool { phase <= .running }
  /// What it contains that has not ended; its place in its parent's, and in `inFlight` (or -1).
  private(set) var children: [RunningEffect] = []
  fileprivate var (index, slot) = (0, -1)
  init(
    lineage: StoreTask, parent: RunningEffect?, ids: EffectIDs, isGroup: Bool = false,
    isPause: Bool = false
  ) {
    (self.lineage, self.parent, self.ids) = (lineage, parent, ids)
    (self.isGroup, self.isPause, phase) = (isGroup, isPause, isGroup ? .starting : .running)
    (depth, index) = ((parent?.depth ?? -1) + 1, parent?.children.count ?? 0)
    parent?.children.append(self)
    if !isGroup { (lineage.active, lineage.count) = (lineage.active + 1, lineage.count + 1) }
  }

  func forEachID(_ body: (EffectID) -> Void) {
    if let id = ids.first { body(id) }
    ids.rest.forEach(body)
  }

  /// The event of a group's parts all started: whether it is empty, to move it on now.
  func started() -> Bool {
    precondition(phase == .starting || phase == .cancelled, "MiniRedux: a group started twice")
    if phase == .starting { phase = .running }  // NB: Cancelled meanwhile, it stays cancelled.
    return children.isEmpty
  }

  /// The event of a cancellation (`Registry.cancel` cancels the task): whether it was running.
  func cancel() -> Bool {
    guard phase <= .running else { return false }  // NB: Cancelled or ended: no event.
    phase = .cancelled
    if !isGroup { lineage.active -= 1 }  // NB: `StoreTask.isCancelled` counts it cancelled.
    return true
  }

  /// The event of its end: leaves its lineage and parent; whether it was running, to unregister.
  private func end() -> Bool {
    precondition(children.isEmpty, "MiniRedux: an effect ended before what it contains")
    precondition(phase == .running || phase == .cancelled, "MiniRedux: an effect ended twice")
    let wasRunning = phase == .running
    phase = wasRunning ? .finished : .unwound
    if !isGroup {
      if wasRunning { lineage.active -= 1 }
      if wasRunning && !isPause { lineage.finishedOne = true }  // NB: A pause is no effect.
      lineage.leave()
    }
    if let parent = parent.take() { swapRemove(&parent.children, at: index)?.index = index }
    return wasRunning
  }

  /// Ends it; moves on the container it empties, or ends it too once the store is gone.
  func end(in registry: Registry?) {
    var next: RunningEffect? = self
    while let effect = next {
      next = effect.parent
      // NB: Its store's release cancelled it, which its lineage then reads as a `cancel()`.
      if registry == nil, effect.cancel() { effect.lineage.wasCancelled = true }
      if effect.end() { registry?.unregister(effect, cancellingTask: false) }
      guard let parent = next, parent.children.isEmpty, parent.phase != .starting else { break }
      if let registry { return registry.emptied(parent) }
    }
  }
}

/// A `.concatenate` in flight: its steps still to start, the next once its `children` have ended.
@MainActor final class Concatenation<Action: Sendable>: RunningEffect {
  private(set) var steps: [Effect<Action>]  // The steps still to start, last first.
  /// The action whose reducer returned it, named in reports of its effects' errors.
  let origin: Action
  init(
    _ lineage: StoreTask, _ parent: RunningEffect?, _ ids: EffectIDs, _ parts: Effect<Action>.Parts,
    origin: Action
  ) {
    (steps, self.origin) = (parts.rest.reversed() + [parts.first], origin)
    super.init(lineage: lineage, parent: parent, ids: ids)
  }

  /// Pops the next step; a nested concatenation is spread, so that nesting costs no depth.
  func nextStep() -> Effect<Action>? {
    while let step = steps.popLast() {
      if isRoomy(steps.capacity, steps.count) { steps = steps.map { $0 } }  // NB: What ran goes.
      guard case .concatenate(let parts) = step.operation else { return step }
      steps += parts.effects.reversed()
    }
    return nil
  }
}

/// A store's effects in flight, by id, apart from `State` and `Action`; released, it cancels them.
@MainActor class Registry {
  /// Each `.run` and concatenation in flight, at its `slot`, with its task (`deinit` reads these).
  fileprivate(set) var inFlight: [(effect: RunningEffect, task: Task<Void, Never>?)] = []
  /// The effects under each id: the first inline, as most ids cover one effect at a time.
  private(set) var byID:
    [EffectID: (first: RunningEffect, others: [ObjectIdentifier: RunningEffect])] = [:]
  /// The ids with effects in flight that watch the state (`EffectID.watchesState`).
  fileprivate(set) var watched: Set<EffectID> = [] { didSet { hasWatched = !watched.isEmpty } }
  private(set) var hasWatched = false  // NB: Each reduction reads it (HowItWorks' table).
  deinit { for entry in inFlight { entry.task?.cancel() } }
  func dismiss(from effect: RunningEffect) {}  // NB: The runtime's, which knows the state.
  func emptied(_ container: RunningEffect) {}  // NB: The runtime's, which moves it on.

  func register(_ effect: RunningEffect) {
    if !effect.isGroup { effect.slot = (inFlight.count, inFlight.append((effect, nil))).0 }
    effect.forEachID { id in
      // NB: Only `first` read, not a copy of `others`, which the write would then copy whole.
      guard let first = byID[id]?.first else {
        byID[id] = (effect, [:])
        if id.watchesState { watched.insert(id) }
        return
      }
      // NB: An id twice around one effect registers it once.
      if first !== effect { byID[id]!.others[.init(effect)] = effect }
    }
  }

  func unregister(_ effect: RunningEffect, cancellingTask: Bool) {
    if effect.slot >= 0 {
      if cancellingTask { inFlight[effect.slot].task?.cancel() }
      swapRemove(&inFlight, at: effect.slot)?.effect.slot = effect.slot
      effect.slot = -1
    }
    effect.forEachID { id in
      guard var members = byID.removeValue(forKey: id) else { return }
      if members.first !== effect {
        members.others[.init(effect)] = nil
      } else if let next = members.others.popFirst()?.value {
        members.first = next
      } else {
        guard id.watchesState else { return }
        watched.remove(id)
        if isRoomy(watched.capacity, watched.count) { watched = Set(watched.lazy.map { $0 }) }
        return
      }
      if isRoomy(members.others.capacity, members.others.count) {
        members.others = .init(uniqueKeysWithValues: members.others.map { $0 })
      }
      byID[id] = members
    }
    if isRoomy(byID.capacity, byID.count) { byID = .init(uniqueKeysWithValues: byID.map { $0 }) }
  }

  /// Cancels `effect` and all it contains; a group still starting stays, unless its container goes.
  func cancel(_ effect: RunningEffect) {
    var pending = [(effect, false)]
    while let (effect, isContained) = pending.popLast() {
      let staysOpen = effect.phase == .starting && !isContained
      guard staysOpen || effect.cancel() else { continue }
      if !staysOpen { unregister(effect, cancellingTask: true) }
      pending += effect.children.map { ($0, !staysOpen) }
    }
  }

  /// Cancels every effect under `id` but those enclosing `container`, whose other contents it does.
  func cancel(_ id: EffectID, sparing container: RunningEffect?) {
    // NB: Over a copy, as cancelling one unregisters it.
    guard let members = byID[id] else { return }
    var outermost: RunningEffect?
    // NB: What encloses `container`, innermost first: one climb, however many members there are.
    let enclosing = container.map { Array(sequence(first: $0, next: \.parent)) } ?? []
    func cancelUnlessEnclosing(_ member: RunningEffect) {
      let up = enclosing.count - 1 - member.depth  // NB: Where `member`'s depth is in `enclosing`.
      guard up >= 0, enclosing[up] === member else { return cancel(member) }
      if member.depth < outermost?.depth ?? .max { outermost = member }
    }
    cancelUnlessEnclosing(members.first)
    for member in members.others.values { cancelUnlessEnclosing(member) }
    // NB: One climb from `container` to the outermost effect under `id` that encloses it.
    var (node, from) = (container, RunningEffect?.none)
    while let current = node, let outermost, from !== outermost {
      for child in current.children where child !== from { cancel(child) }
      (node, from) = (current.parent, current)
    }
  }
}

// MARK: - Reporting misuse
/// Reports misuse, an uncaught error or a failing test step, as the bound `Reporter` says.
@usableFromInline nonisolated func miniReduxReport(_ message: String, fails: Bool = false) {
  miniReduxReporter.get().report(message, fails)
}

/// `type` named as code near it: `Feature.State`, not its module or function (generics as printed).
nonisolated func typeName(_ type: Any.Type) -> String {
  let path = String(reflecting: type).split(separator: ".").dropFirst()
  let inner = path.reversed().prefix { !$0.contains(")") }.reversed().joined(separator: ".")
  return path.contains { $0.contains("<") } ? "\(type)" : inner
}

/// Marks the main queue, so that code can tell it runs there, on the main actor.
nonisolated func isMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }
nonisolated private let mainQueueKey = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

// MARK: - Beyond the core: mapping effects
extension Effect {
  /// The same work, under the same ids, sending `transform(action)` for each `action`.
  /// ```swift
  /// case .counter(let action):
  ///   return counterReducer(&state.counter, action).map(AppAction.counter)
  /// ```
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    map(transform) { ($0, nil) }
  }

  /// `map`, with each id inside renamed by `rename` (child features make a child's ids its own),
  /// and a `cancellable`'s effect also under the alias `rename` gives, if any.
  func map<T>(_ transform: @escaping @Sendable (Action) -> T, ids rename: Rename) -> Effect<T> {
    // NB: A `.none`, `.send` or `.run`, the usual effect, skips the walk (HowItWorks' table).
    guard parts != nil else { return map(transform, rename, parts: []) }
    // NB: Loops, not recursion, as all walks of an effect: list parents first, map children first.
    var (effects, pending) = ([Self](), [self])
    while let effect = pending.popLast() {
      effects.append(effect)
      pending += effect.parts?.effects.reversed() ?? []
    }
    var mapped: [Effect<T>] = []
    for effect in effects.reversed() {
      let parts = (0..<(effect.parts?.effects.count ?? 0)).map { _ in mapped.removeLast() }
      mapped.append(effect.map(transform, rename, parts: parts))
    }
    return mapped[0]
  }

  typealias Rename = (EffectID) -> (EffectID, alias: EffectID?)
  private func map<T>(
    _ transform: @escaping @Sendable (Action) -> T, _ rename: Rename, parts: [Effect<T>]
  ) -> Effect<T> {
    @Sendable nonisolated func wrap(_ parent: Send<T>) -> Send<Action> {
      Send(effect: parent.effect) { parent.deliver(transform($0), $1) }
    }
    switch operation {
    case .none: return .none
    case .send(let action): return .send(transform(action))
    case .cancel(let id): return Effect<T>(operation: .cancel(rename(id).0))
    case .report(let action, let message):
      return Effect<T>(operation: .report(transform(action), message))
    case .dismiss: return Effect<T>(operation: .dismiss)
    case .cancellable(let id, let cancelInFlight, _):
      let (renamed, alias) = rename(id)
      let effect = parts[0].cancellable(renamed, cancelInFlight: cancelInFlight)
      return alias.map { effect.cancellable($0) } ?? effect
    case .merge: return Effect<T>(operation: .merge(.init(parts)))
    case .concatenate: return Effect<T>(operation: .concatenate(.init(parts)))
    case .run(let priority, let body, let handler, let pause):
      let handler = handler.map { handler -> Effect<T>.Catch in { await handler($0, wrap($1)) } }
      return .init(operation: .run(priority, { try await body(wrap($0)) }, handler, isPause: pause))
    }
  }

  // MARK: - Time
  /// This effect after a pause of `duration` on `clock`, all cancellable under `id` with
  /// `cancelInFlight: true`: a newer debounced effect replaces it, paused or working. Cancelled in
  /// either, it counts as cancelled (``StoreTask/isCancelled``, <doc:EffectsAndCancellation>).
  /// ```swift
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300))
  /// ```
  @inlinable public func debounce(
    id: sending some Hashable, for duration: Duration,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Self {
    let duration = min(duration, longestWait)
    guard case .run(let priority, let body, let handler, isPause: false) = operation else {
      let sleep: Body = { _ in try await clock.sleep(for: duration) }
      let pause = Self(operation: .run(nil, sleep, nil, isPause: true))
      return Self.concatenate(pause, self).cancellable(id: id, cancelInFlight: true)
    }
    // NB: A `.run` pauses in its own task, then works: a concatenation's rule (HowItWorks' table).
    let debounced: Body = { send in
      try await clock.sleep(for: duration)
      try Task.checkCancellation()
      try await body(send)
    }
    return Self(operation: .run(priority, debounced, handler, isPause: false)).cancellable(
      id: id, cancelInFlight: true)
  }
}

/// The longest wait MiniRedux asks of a clock, years: the runtime traps past `Int64.max` seconds.
@inlinable nonisolated var longestWait: Duration { .seconds(Int64.max / 4) }

// MARK: - Child features: their places, and ending their effects with them
/// A counter of stack screens' ids that starts at `id`: `next` gives one, `peek` tells it.
nonisolated func stackIDs(from id: Int) -> (next: @Sendable () -> Int, peek: @Sendable () -> Int) {
  let queue = DispatchQueue(label: "MiniRedux.StackState")
  nonisolated(unsafe) var next = id  // Sound: read and written on `queue` only.
  return ({ queue.sync { (next, next += 1).0 } }, { queue.sync { next } })
}

/// Which keys of an embedding a state holds, each as its place boxes it (the embedding's own type,
/// read back with no existential cast); `children` keeps the child states read in one look.
@usableFromInline typealias Keys<State> =
  (State, _ children: inout [ObjectIdentifier: Any]) -> (EffectID) -> Bool

/// The id of a child's effects in a `State`: its embedding (a key path, with places around), key.
final class Place<State>: TypedEffectID<[EffectID]>, @unchecked Sendable {
  var embedding: EffectID { value[0] }  // NB: An id, compared with no cast (HowItWorks' table).
  var key: EffectID { value[1] }  // NB: Boxed by the embedding, which alone reads it.
  /// Which keys of `embedding` a state holds; how `.dismiss` removes the child (`nil`: from outer).
  let (keys, remove): (Keys<State>, ((inout State) -> Void)?)
  init(_ at: [EffectID], keys: @escaping Keys<State>, remove: ((inout State) -> Void)?) {
    (self.keys, self.remove) = (keys, remove)
    super.init(at)
  }
  override var watchesState: Bool { true }
}

extension Effect {
  /// An effect that removes the child feature whose reducer returns it: the state `ifLet` embeds
  /// becomes `nil`, the element `forEach` embeds leaves its collection, and the child's effects
  /// end, at once or once a concatenation's step has ended; from a `.run`, use ``Send/dismiss()``
  /// (<doc:NavigationAndChildFeatures>).
  /// ```swift
  /// case .closeTapped:
  ///   return .dismiss
  /// case .saveTapped:
  ///   return .concatenate(.send(.delegate(.saved(state.draft))), .dismiss)
  /// ```
  nonisolated public static var dismiss: Self { Self(operation: .dismiss) }

  /// Whether it removes its child as it starts: a `.dismiss`, alone, in a merge or in a first step.
  var dismissesAtOnce: Bool {
    var pending = [self]
    while let effect = pending.popLast() {
      switch effect.operation {
      case .dismiss: return true
      case .cancellable(_, _, let parts), .concatenate(let parts): pending.append(parts.first)
      case .merge(let parts): pending += parts.effects
      default: break
      }
    }
    return false
  }
}

extension Send {
  /// Removes the child feature whose effect this is, once what it sent before was reduced, as
  /// ``Effect/dismiss`` after a step does (TCA's `await dismiss()`); nothing once it is cancelled.
  /// ```swift
  /// case .saveTapped:
  ///   return .run { [draft = state.draft] send in
  ///     try await api.save(draft)
  ///     await send(.delegate(.saved(draft)))
  ///     await send.dismiss()
  ///   }
  /// ```
  @MainActor public func dismiss() {
    if !Task.isCancelled { effect.lineage.registry?.dismiss(from: effect) }
  }
}

extension Runtime {
  /// Cancels the effects of embedded children that the state no longer holds, whoever removed them.
  func endGoneChildren() {
    let placeType = Place<State>.self  // NB: Looked up once, not per id (HowItWorks' table).
    for id in watched where type(of: id) != placeType {
      watched.remove(id)
      miniReduxReport(
        "MiniRedux: a \(Self.name) runs effects of a child embedded "
          + "inside a reducer embedded by hand (called from another reducer, its effect mapped): "
          + "they will not end with that child. Embed the reducer with scope, ifLet or forEach.")
    }
    // NB: One look at each embedding's keys; the last one's at hand, as places come mixed.
    var (looks, children) = ([EffectID: (EffectID) -> Bool](), [ObjectIdentifier: Any]())
    var last: (embedding: EffectID, isPresent: (EffectID) -> Bool)?
    for id in watched {
      let place = unsafeDowncast(id, to: Place<State>.self)  // NB: Sound: only places are left.
      if last?.embedding != place.embedding {
        looks[place.embedding] = looks[place.embedding] ?? place.keys(state, &children)
        last = (place.embedding, looks[place.embedding]!)
      }
      if !last!.isPresent(place.key) { cancel(place, sparing: nil) }
    }
  }

  /// Removes the nearest removable child around `container`, effects and all, in a step of its own.
  func dismissChild(from container: RunningEffect?, origin: Action?) {
    guard container?.isRunning ?? true else { return }
    var (node, place, stepsLeft) = (container, Place<State>?.none, false)
    while place == nil, let current = node {
      // NB: The last is the innermost: a child in a child dismisses itself, not its parent.
      current.forEachID { if let id = $0 as? Place<State>, id.remove != nil { place = id } }
      stepsLeft = stepsLeft || (current as? Concatenation<Action>)?.steps.isEmpty == false
      node = current.parent
    }
    func named() -> String { origin.map { " for \(dumpLine($0))" } ?? "" }  // NB: Only to report.
    guard let place, !isReducing else {
      return miniReduxReport(
        "MiniRedux: .dismiss\(named()) did nothing in a \(Self.name): only a child embedded with "
          + "ifLet or forEach may dismiss itself. To test a feature that dismisses itself, embed "
          + "it in its parent, as the app does.")
    }
    if stepsLeft {
      miniReduxReport(
        "MiniRedux: .dismiss\(named()) came before other steps of a concatenation; they ended with "
          + "the child, unstarted. Make .dismiss the last step.")
    }
    place.remove!(&state)
    mustNotify = true
    endGoneChildren()
    if !isSending { drain(causedBy: container) }
  }
}

extension Reduce {
  /// A child's `effect`, then `parent`'s, merged: at `path` under `key`, through `embed`, its ids
  /// renamed into its place's (if it `owns` them), which `child`, `modify`, `keys`, `remove` reach;
  /// or dropped, if it dismisses at once, as `removeNow` removes the child (or says it cannot).
  @usableFromInline @MainActor static func embed<ChildState, ChildAction, Key: Hashable>(
    _ effect: Effect<ChildAction>, for action: Action, in state: inout State,
    then parent: Reducer<State, Action>, _ embed: @escaping @Sendable (ChildAction) -> Action,
    at path: AnyKeyPath, key: Key, owns: Bool = true,
    child: @escaping (State) -> ChildState?,
    modify: @escaping (inout State, (inout ChildState) -> Void) -> Void,
    keys: @escaping Keys<State>, remove: ((inout State) -> Void)?,
    removeNow: ((inout State) -> Bool)?
  ) -> Effect<Action> {
    guard !effect.isNone else { return parent(&state, action) }
    if let removeNow, effect.dismissesAtOnce {
      dismissed(effect, by: action, removed: removeNow(&state))
      return parent(&state, action)
    }
    let id = Place<State>([TypedEffectID(path), TypedEffectID(key)], keys: keys, remove: remove)
    let embedded = effect.map(embed) { inner in
      // NB: Renamed under `scope` too: two scoped children of one type have children of their own.
      guard let place = inner as? Place<ChildState> else {
        // NB: An id of the child's own, or a place of another store's state, which it reports.
        guard owns, !inner.watchesState else { return (inner, nil) }
        // NB: A user's id is its ancestors' too: their `.cancel(id:)` reaches the child's effects.
        // A renamed one has its alias already; another would double the names at each level.
        let isUsers = type(of: inner) != TypedEffectID<[EffectID]>.self
        return (TypedEffectID([id, inner]), isUsers ? inner : nil)
      }
      let keys: Keys<State> = { state, children in
        // NB: Read once per look for all places inside (in an array: `Any` flattens a `nil`).
        let inner = (children[ObjectIdentifier(id)] as? [ChildState?] ?? [child(state)])[0]
        children[ObjectIdentifier(id)] = [inner]
        return inner.map { place.keys($0, &children) } ?? { _ in false }
      }
      let at: [EffectID] = [TypedEffectID([id, place.embedding]), place.key]
      return (Place(at, keys: keys, remove: place.remove.map { r in { modify(&$0, r) } }), nil)
    }
    return .merge(owns ? embedded.cancellable(id) : embedded, parent(&state, action))
  }
}

/// The name of `value`'s case, if an enum with reflection metadata, at one address per case: the
/// runtime's function that `print` calls, in every standard library; a tenth of a `Mirror`'s cost.
@_silgen_name("swift_EnumCaseName")
nonisolated func caseName<Value>(_ value: Value) -> UnsafePointer<CChar>?

// MARK: - Testing
/// Where MiniRedux reports misuse, uncaught errors and failing test steps; its tests replace it.
nonisolated let miniReduxReporter = TaskLocal(wrappedValue: Reporter())
/// What `miniReduxReporter` holds: a report fails the test that runs, as TCA's, or is written to
/// standard error; one that `fails` (a test's own, not recorded) makes the process exit 1.
// NB: A struct: Swift 6.3 -O crashes binding a task-local of function type (swiftlang/swift#88321).
nonisolated struct Reporter: Sendable {
  var report: @Sendable (String, _ fails: Bool) -> Void = { message, fails in
    if !fails, recordTestIssue(message, at: (#fileID, #filePath, #line, #column)) { return }
    var line = message + "\n"
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
      if fails { _ = Reporter.failingAtExit }
    #else
      print(line, terminator: "")
    #endif
  }
  var recordIssue: @Sendable (String, StepLocation) -> Bool = { recordTestIssue($0, at: $1) }
  /// Stack screens' ids, each given once: the process's (in tests, from 2^30), or a test store's.
  var nextStackID = stackIDs(from: isTesting ? 1 << 30 : 0).next
  /// The executor of a new store's effects: in a test, a new one, or the test store's.
  var makeExecutor: @Sendable () -> TestExecutor? = { isTesting ? TestExecutor() : nil }
}

nonisolated var isTesting: Bool { recordTestIssue(nil, at: (#fileID, #filePath, #line, #column)) }

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
  /// Records `message`, if any, as the test's failure at `location`; `false` if none runs. Swift
  /// Testing and XCTest are found at run time, unlinked (how, and why it is sound: HowItWorks).
  nonisolated func recordTestIssue(_ message: String?, at location: StepLocation) -> Bool {
    if case let (t?, i?, l?, c?) = testingTypes, recordIssue(t, i, l, c, message, location) {
      return true
    }
    guard let message, let fail = xcTestFail else { return xcTestFail != nil }
    // NB: Sound: the signature of `XCTFail(_:file:line:)` is in its name, in stdlib types only.
    unsafeBitCast(fail, to: (@convention(thin) (String, StaticString, UInt) -> Void).self)(
      message, location.filePath, location.line)
    return true
  }

  /// Swift Testing's types, if it is loaded; found once, as `_typeByName` searches every type.
  // NB: Sound: types, set once and only read. Cast to protocols: Swift 5 mode opens no `Any.Type`.
  nonisolated(unsafe) private let testingTypes = (
    _typeByName("7Testing4TestV") as? any Hashable.Type,
    _typeByName("7Testing5IssueV") as? any CustomStringConvertible.Type,
    _typeByName("7Testing14SourceLocationV") as? any Hashable.Type,
    _typeByName("7Testing7CommentV") as? any RawRepresentable.Type
  )

  /// XCTest's `XCTFail(_:file:line:)`, if XCTest runs this process; found once.
  // NB: Sound: an address, set once and only read.
  nonisolated(unsafe) private let xcTestFail: UnsafeMutableRawPointer? = {
    #if canImport(Darwin)
      let inXCTest = ["XCTestBundlePath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier"]
        .contains { getenv($0) != nil }
    #else
      // NB: XCTest here can't tell if a test runs; Swift Testing's process has it in its arguments.
      let inXCTest = !CommandLine.arguments.contains("swift-testing")
    #endif
    return inXCTest ? symbol("$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF") : nil
  }()

  /// Calls `Issue.record(_:sourceLocation:)` in the running Swift Testing test, if there is one.
  nonisolated private func recordIssue<
    Test: Hashable, Issue: CustomStringConvertible, Location: Hashable, Comment: RawRepresentable
  >(
    _: Test.Type, _: Issue.Type, _: Location.Type, _: Comment.Type, _ message: String?,
    _ location: StepLocation
  ) -> Bool {
    // NB: The thunk exists only in a Testing built with library evolution, as toolchains ship it.
    guard symbol("$s7Testing10SuiteTraitP11isRecursiveSbvgTj") != nil,
      let current = symbol("$s7Testing4TestV7currentACSgvgZ"),
      let make = symbol("$s7Testing14SourceLocationV6fileID0D4Path4line6columnACSS_SSS2itcfC"),
      let fail = symbol("$s7Testing5IssueV6record_14sourceLocationAcA7CommentVSg_AA06SourceE0VtFZ"),
      // NB: Sound, as the signatures are in the names and the values cross by address (above).
      unsafeBitCast(current, to: (@convention(thin) () -> Test?).self)() != nil
    else { return false }
    guard let rawValue = message as? Comment.RawValue, let comment = Comment(rawValue: rawValue)
    else { return message == nil }
    // NB: `SourceLocation.init` stops the program on a `fileID` with no slash, or a line below 1.
    let fileID = "\(location.fileID)".contains("/") ? "\(location.fileID)" : "_/\(location.fileID)"
    let sourceLocation = unsafeBitCast(
      make, to: (@convention(thin) (__owned String, __owned String, Int, Int) -> Location).self)(
        fileID, "\(location.filePath)", max(Int(location.line), 1), max(Int(location.column), 1))
    _ = unsafeBitCast(fail, to: (@convention(thin) (Comment?, Location) -> Issue).self)(
      comment, sourceLocation)
    return true
  }

  nonisolated private func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    dlsym(dlopen(nil, RTLD_NOW), name)
  }

  extension Reporter {
    nonisolated static let failingAtExit = atexit {  // NB: Static, as a script runs globals.
      #if canImport(Musl)
        // NB: musl traps exit from an atexit handler (before 1.1.2, hangs); skip earlier ones.
        fflush(nil)
        _exit(1)
      #else
        // NB: glibc and Darwin run the other handlers (LeakSanitizer's, coverage's), then exit 1.
        exit(1)
      #endif
    }
  }
#else
  nonisolated func recordTestIssue(_ message: String?, at location: StepLocation) -> Bool { false }
#endif

// MARK: - Combine
#if canImport(Combine)
  import Combine

  extension Effect {
    /// An effect sending each value `createPublisher()` emits, until it completes or is cancelled.
    /// ```swift
    /// case .listen:
    ///   return .publisher { [1, 2, 3].publisher.map(Action.heard) }
    /// ```
    public static func publisher<P: Publisher>(_ createPublisher: @escaping @Sendable () -> P)
      -> Self where P.Output == Action, P.Failure == Never
    {
      .run { send in
        let actions = AsyncStream<Action> { continuation in
          // NB: Not `Sendable`, but touched only here and in onTermination, which are ordered.
          nonisolated(unsafe) let subscription = createPublisher().sink(
            receiveCompletion: { _ in continuation.finish() },
            receiveValue: { continuation.yield($0) })
          continuation.onTermination = { _ in subscription.cancel() }
        }
        for await action in actions { await send(action) }
      }
    }
  }
#endif
