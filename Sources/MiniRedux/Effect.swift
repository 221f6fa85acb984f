// MiniRedux · Copyright (c) 2026 The MiniRedux authors · MIT License: https://opensource.org/license/mit

#if canImport(Combine)
  import Combine
#endif
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
///   } catch: { error, send in
///     await send(.quoteLoaded("Error: \(error)"))
///   }
///   .cancellable(id: CancelID.load, cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline let operation: Operation
  @usableFromInline nonisolated init(operation: Operation) { self.operation = operation }
}

// MARK: - Creating effects

extension Effect {
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
  ///   - handler: Gets what `operation` throws, unless it is a `CancellationError` or the effect
  ///     was cancelled; without one, the error goes to standard error.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @concurrent @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (
      @concurrent @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void
    )? = nil
  ) -> Self {
    Self(operation: .run(priority, operation, handler))
  }

  /// An effect that sends `action` back, reduced before the `send` that produced it returns.
  /// ```swift
  /// case .saveTapped:
  ///   return .send(.delegate(.saved))
  /// ```
  public static func send(_ action: Action) -> Self { Self(operation: .send(action)) }

  /// An effect that removes the child feature whose reducer returns it, in the same `send`: the
  /// state an ``ifLet(_:state:action:embed:child:)`` embeds becomes `nil`, the element of a
  /// ``forEach(_:state:action:embed:child:)`` collection leaves it, and the child's effects end.
  ///
  /// Return it alone: what the child returns with it ends with the child, unstarted, and is
  /// reported. To tell the parent first, send the delegate action, then the one that dismisses.
  /// ```swift
  /// case .closeTapped:
  ///   return .dismiss
  /// case .saveTapped:
  ///   return .run { [draft = state.draft] send in
  ///     try await save(draft)
  ///     await send(.delegate(.saved))
  ///     await send(.closeTapped)
  ///   }
  /// ```
  nonisolated public static var dismiss: Self { Self(operation: .dismiss) }
}

// MARK: - Composing effects

extension Effect {
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

  private static func composite(_ effects: some Sequence<Self>, _ make: (Parts) -> Operation)
    -> Self
  {
    let parts = effects.filter { !$0.isNone }
    return parts.count > 1 ? Self(operation: make(Parts(parts))) : parts.first ?? .none
  }

  /// The same work, under the same ids, sending `transform(action)` for each `action`.
  /// ```swift
  /// case .counter(let action):
  ///   return counterReducer(&state.counter, action).map(AppAction.counter)
  /// ```
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    map(transform) { $0 }
  }

  /// `map`, with every id inside renamed by `rename`: how an embedded child's ids become its own.
  func map<T>(_ transform: @escaping @Sendable (Action) -> T, ids rename: (EffectID) -> EffectID)
    -> Effect<T>
  {
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

  private func map<T>(
    _ transform: @escaping @Sendable (Action) -> T, _ rename: (EffectID) -> EffectID,
    parts: [Effect<T>]
  ) -> Effect<T> {
    switch operation {
    case .none: return .none
    case .send(let action): return .send(transform(action))
    case .cancel(let id): return Effect<T>(operation: .cancel(rename(id)))
    case .report(let message): return Effect<T>(operation: .report(message))
    case .dismiss: return Effect<T>(operation: .dismiss)
    case .cancellable(let id, let cancelInFlight, _):
      return parts[0].cancellable(rename(id), cancelInFlight: cancelInFlight)
    case .merge: return Effect<T>(operation: .merge(.init(parts)))
    case .concatenate: return Effect<T>(operation: .concatenate(.init(parts)))
    case .run(let priority, let body, let handler):
      let handler = handler.map { handler -> Effect<T>.Handler in
        { error, send in await handler(error, Send(send, transform)) }
      }
      return Effect<T>(operation: .run(priority, { try await body(Send($0, transform)) }, handler))
    }
  }
}

// MARK: - Cancellation and time

extension Effect {
  /// This effect, with everything it contains registered under `id` the moment it starts, so that
  /// `.cancel(id:)`, even later in the same reducer output, finds it.
  ///
  /// What the effect's actions start is not contained in it; `cancelInFlight` never cancels this
  /// effect, nor a wrapper around it. Ids compare by type and value, per store (<doc:Guarantees>).
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  // NB: Inlinable, as what it makes is: a client of the package then makes the id's box and the
  // parts with their types known, with no type lookup at run time (S5a 5%).
  @inlinable public func cancellable(id: sending some Hashable, cancelInFlight: Bool = false)
    -> Self
  {
    cancellable(EffectID(id), cancelInFlight: cancelInFlight)
  }

  @inlinable func cancellable(_ id: EffectID, cancelInFlight: Bool = false) -> Self {
    if isNone && !cancelInFlight { return self }
    let parts = Parts(self, [], height: (parts?.height ?? 0) + 1)
    return Self(operation: .cancellable(id, cancelInFlight: cancelInFlight, parts))
  }

  /// An effect that cancels the effects running under `id`; what their actions started keeps
  /// running, as part of the ``StoreTask`` it descends from.
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  public static func cancel(id: sending some Hashable) -> Self {
    Self(operation: .cancel(EffectID(id)))
  }

  /// This effect after a sleep of `duration` on `clock`, all cancellable under `id` with
  /// `cancelInFlight: true`: a newer debounced effect replaces it.
  /// ```swift
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300))
  /// ```
  @inlinable public func debounce(
    id: sending some Hashable, for duration: Duration,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Self {
    // NB: The runtime traps on a deadline past Int64.max seconds; this one is years away still.
    let duration = min(duration, .seconds(Int64.max / 4))
    guard case .run(let priority, let body, let handler) = operation else {
      let wait = Self.run { _ in try await clock.sleep(for: duration) }
      return Self.concatenate(wait, self).cancellable(id: id, cancelInFlight: true)
    }
    // NB: One `.run` is one task, which sleeps, then works: what a concatenation of the two does,
    // at half the cost. Cancelled during its sleep, it never starts the work.
    let debounced: Body = { send in
      try await clock.sleep(for: duration)
      try Task.checkCancellation()
      try await body(send)
    }
    return Self(operation: .run(priority, debounced, handler)).cancellable(
      id: id, cancelInFlight: true)
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
  /// The effect that sends, and its store's way in, the same for all its effects.
  let running: RunningEffect
  let deliver: @MainActor @Sendable (Action, RunningEffect) -> Void

  /// Sends `action`, unless the effect was cancelled; the store reduces it before this returns.
  @MainActor public func callAsFunction(_ action: Action) {
    // NB: A cancelled operation may still get here; cancellation must win.
    guard !Task.isCancelled else { return }
    deliver(action, running)
  }
}

extension Send {
  init<Parent>(_ parent: Send<Parent>, _ transform: @escaping @Sendable (Action) -> Parent) {
    self.init(running: parent.running) { action, running in
      parent.deliver(transform(action), running)
    }
  }
}

// MARK: - The effect description

extension Effect {
  // NB: Only `send` and `run` are `indirect`: then the enum's layout does not depend on `Action`,
  // telling its case needs no type lookup at run time, and an action may carry an effect.
  @usableFromInline enum Operation: Sendable {
    case none
    indirect case send(Action)
    indirect case run(TaskPriority?, Body, Handler?)
    case cancel(EffectID)
    /// Misuse an embedding found while reducing, for the store's reporter.
    indirect case report(String)
    /// Removes the child whose reducer returned it; its embedding acts on it.
    case dismiss
    case cancellable(EffectID, cancelInFlight: Bool, Parts)
    case merge(Parts)
    case concatenate(Parts)
  }

  @usableFromInline typealias Body = @concurrent @Sendable (Send<Action>) async throws -> Void
  @usableFromInline typealias Handler =
    @concurrent @Sendable (any Error, Send<Action>) async -> Void

  /// The parts of a composite effect: a `cancellable`'s one part is `first`, with no array.
  // NB: `deinit` releases a deep tree in a loop, not recursively; the parts change only there.
  @usableFromInline nonisolated final class Parts: @unchecked Sendable {
    @usableFromInline private(set) var first: Effect
    @usableFromInline private(set) var rest: [Effect]
    @usableFromInline let height: Int

    @inlinable init(_ first: Effect, _ rest: [Effect], height: Int? = nil) {
      (self.first, self.rest) = (first, rest)
      self.height = height ?? 1 + ([first] + rest).map { $0.parts?.height ?? 0 }.max()!
    }

    convenience init(_ effects: [Effect]) { self.init(effects[0], Array(effects.dropFirst())) }
    var effects: [Effect] { [first] + rest }

    deinit {
      // NB: A shallow tree, the usual one, goes the ordinary way, with no type lookups.
      guard height > 64 else { return }
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

  /// Whether it is, or contains, `.dismiss`.
  @usableFromInline var dismisses: Bool {
    var pending = parts?.effects ?? []
    if case .dismiss = operation { return true }
    while let effect = pending.popLast() {
      if case .dismiss = effect.operation { return true }
      pending += effect.parts?.effects ?? []
    }
    return false
  }

  // NB: `isolation: nil` runs this and the operation on the global executor in every compile mode.
  static func perform(
    _ body: Body, _ handler: Handler?, _ send: Send<Action>, startedBy origin: Action,
    isolation: isolated (any Actor)? = nil
  ) async {
    do {
      try await body(send)
    } catch {
      // NB: Cancellation is silent: an error thrown because of it is no failure. The flag first:
      // reading it costs less than the cast (1% of S5a).
      guard !Task.isCancelled, !(error is CancellationError) else { return }
      guard let handler else {
        return miniReduxReport(
          "MiniRedux: an effect started by \(origin) threw \(error), and it has no catch: "
            + "handler. Pass `catch:` to .run to turn errors into actions.")
      }
      await handler(error, send)
    }
  }
}

/// A cancellation id, compared by its type and its value.
// NB: A typed box compares the value with no dynamic cast (`AnyHashable` costs S5a 8.5%). The
// value is `sending`, not `Sendable`: made in its maker's isolation, then only hashed, compared.
@usableFromInline struct EffectID: Hashable, Sendable {
  @usableFromInline let box: IDBox
  @inlinable init<Value: Hashable>(_ value: sending Value) {
    box = TypedIDBox(value, place: nil)
  }

  /// The id of an embedded child's effects, named by its place.
  init(_ place: Place) {
    // NB: Sound: the array of two `AnyHashable`s is made here, then only hashed and compared.
    nonisolated(unsafe) let value = [place.embedding, place.key]
    box = TypedIDBox(value, place: place)
  }

  /// Where the child whose effects run under this id is, if it is an embedded child's id.
  var place: Place? { box.place }

  /// Where an embedded child is: its `embedding`, its `key` there, and `keys`, a
  /// `(State) -> (AnyHashable) -> Bool` that tells, from a state of the store that embeds it,
  /// which keys of that embedding are present.
  @usableFromInline typealias Place = (embedding: AnyHashable, key: AnyHashable, keys: Any)

  @usableFromInline static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box || lhs.box.isEqual(to: rhs.box)
  }

  @usableFromInline func hash(into hasher: inout Hasher) { box.hash(into: &hasher) }
}

// NB: Unchecked, as a place's `keys` is not `Sendable`: only a store's runtime calls it, on the
// main actor.
@usableFromInline class IDBox: @unchecked Sendable {
  let place: EffectID.Place?
  @usableFromInline init(place: EffectID.Place?) { self.place = place }
  func isEqual(to other: IDBox) -> Bool { preconditionFailure("MiniRedux: IDBox is abstract") }
  func hash(into hasher: inout Hasher) { preconditionFailure("MiniRedux: IDBox is abstract") }
}

@usableFromInline final class TypedIDBox<Value: Hashable>: IDBox, @unchecked Sendable {
  let value: Value

  @usableFromInline init(_ value: sending Value, place: EffectID.Place?) {
    self.value = value
    super.init(place: place)
  }

  override func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(Value.self))
    hasher.combine(value)
  }

  override func isEqual(to other: IDBox) -> Bool {
    type(of: other) == Self.self && value == unsafeDowncast(other, to: Self.self).value
  }
}

/// The ids of the `cancellable`s around an effect in flight.
// NB: The first inline, as most effects have one at most: an array for it costs S5a 3%.
typealias EffectIDs = (first: EffectID?, rest: [EffectID])

/// Adds `id` to `ids`, in place: a chain of wrappers costs n, not n·n.
nonisolated func add(_ id: EffectID, to ids: inout EffectIDs) {
  if case .none = ids.first { ids.first = id } else { ids.rest.append(id) }
}

// MARK: - Running effects

// How a root store runs what it is sent, in the order an action meets it (the article "How it
// works" has the map):
// - `Runtime.send` reduces an action at once, or queues it if a send is in progress.
// - `start` walks the effect the reducer returned, with a loop over an explicit stack: a `.send`
//   queues its action, a `.run` becomes a `RunningEffect` with a task, a `.concatenate` a
//   `Concatenation`, whose first step starts now; `.cancellable` and `.merge` are walked into.
// - `drain` reduces the queue in order; once it is empty, it moves on the concatenations whose
//   step may have ended (`advance`); when nothing is left, it tells the store's observers once.
// - A `.run`'s operation sends through `Send`, which calls `deliver` on the main actor: the action
//   is reduced as a `send` is, in the effect's lineage, never inside the effect. When the
//   operation returns, `Registry.end` takes the effect out.
//
// Two relations, and no third:
// - Causation: a `send` and everything its effects sent back is one `Lineage`, which a
//   `StoreTask` waits for and cancels. Each effect in flight, and each action queued, counts in
//   one lineage.
// - Containment: an effect in flight is registered under the ids of the `cancellable`s around it
//   (`Registry`), and one in a concatenation's step counts in that `Concatenation` (its `parent`),
//   which moves on when its step's count drops to zero.
// An action an effect sends joins the effect's lineage, never its containers: what it starts is
// not part of the effect.

/// How many elements an emptied buffer keeps room for: a few, not the largest burst ever.
nonisolated let keptCapacity = 16

/// The runtime of a root store: its state, the send loop and the effect interpreter.
@MainActor final class Runtime<State, Action: Sendable> {
  private(set) var state: State
  private let reducer: Reducer<State, Action>
  /// What each reduction runs inside, if the store was given one.
  private let context: (@MainActor (_ reduce: () -> Void) -> Void)?
  let registry = Registry()
  var didChange: @MainActor () -> Void = {}
  /// Whether the reducer has the state, so that no one else may read it.
  private(set) var isReducing = false
  private var isSending = false
  /// The actions waiting, and the lineage each counts in (`nil`: the send in progress's).
  // NB: Two arrays, as code not specialized for `Action` looks `[(Action, Lineage?)]` up per use.
  private var queuedActions: [Action] = []
  private var queuedLineages: [Lineage?] = []
  /// The lineage of the send in progress, made when one of its effects first runs: a send that
  /// starts none makes none.
  private var current: Lineage?
  /// The concatenations whose step may have ended, in order; `advance` checks.
  // NB: Of a type that does not depend on `Action`, as each send reads its count.
  private var toAdvance: [RunningEffect] = []
  /// How a `Send` reaches this runtime: one closure for all its effects.
  private lazy var deliver: @MainActor @Sendable (Action, RunningEffect) -> Void = {
    [weak self] in self?.deliver($0, from: $1)
  }

  init(
    _ state: State, _ reducer: @escaping Reducer<State, Action>,
    context: (@MainActor (_ reduce: () -> Void) -> Void)?
  ) {
    (self.state, self.reducer, self.context) = (state, reducer, context)
    registry.onStepEnd = { [weak self] in self?.stepEnded($0) }
  }

  /// Reduces `action` and what follows from it synchronously, its effects counting in `lineage`
  /// (a new one if `nil`), which it returns; queues it if a send is in progress.
  func send(_ action: Action, in lineage: Lineage? = nil) -> Lineage? {
    guard !isSending else {
      enqueue(action, lineage)
      return nil
    }
    (isSending, current) = (true, lineage)
    reduce(action, in: lineage)
    drain()
    defer { current = nil }
    return current
  }

  /// Runs the reducer, starts its effect, then ends the effects of the children it removed; inside
  /// the store's context, if it has one, so that the tasks started inherit its task-local values.
  private func reduce(_ action: Action, in lineage: Lineage?) {
    guard let context else { return reduceNow(action, in: lineage) }
    var calls = 0
    context {
      calls += 1
      if calls == 1 { reduceNow(action, in: lineage) }
    }
    if calls != 1 {
      registry.report("MiniRedux: a store's context called reduce \(calls) times; call it once.")
    }
  }

  // NB: Inlined into both paths of `reduce`: a call costs a plain send 2% (S1).
  @inline(__always) private func reduceNow(_ action: Action, in lineage: Lineage?) {
    isReducing = true
    let effect = reducer(&state, action)
    isReducing = false
    if !effect.isNone { start(effect, in: lineage, step: nil, origin: action) }
    if registry.hasChildren { cancelGoneChildren() }
  }

  /// Cancels the effects of the embedded children that the state no longer holds, whoever removed
  /// them: their parent, a reducer around their embedding, a grandparent.
  private func cancelGoneChildren() {
    for (embedding, ids) in registry.children {
      guard let keys = ids.first!.value.place!.keys as? (State) -> (AnyHashable) -> Bool else {
        registry.forget(embedding)
        registry.report(
          "MiniRedux: a Store<\(State.self), \(Action.self)> runs effects of a child embedded at "
            + "\(embedding) inside a reducer that was embedded by hand (called from another "
            + "reducer, its effect mapped), so it cannot tell when that child is removed, and its "
            + "effects will not end with it. Embed the reducer with scope, ifLet or forEach.")
        continue
      }
      let isPresent = keys(state)
      for (key, id) in ids where !isPresent(key) { registry.cancel(id, around: nil) }
    }
  }

  private func enqueue(_ action: Action, _ lineage: Lineage?) {
    lineage?.enter()
    queuedActions.append(action)
    queuedLineages.append(lineage)
  }

  /// Reduces the queue and moves on the concatenations whose step may have ended, until nothing
  /// is left, then tells the observers; again if they sent meanwhile.
  private func drain() {
    var (reduced, moved) = (0, 0)
    while true {
      if reduced < queuedLineages.count {
        reduceQueued(at: reduced)
        reduced += 1
      } else if moved < toAdvance.count {
        moved += 1
        advance(toAdvance[moved - 1])
      } else {
        didChange()
        if reduced == queuedLineages.count && moved == toAdvance.count { break }
      }
    }
    if reduced > 0 { clearQueue() }
    if moved > 0 { toAdvance.removeAll(keepingCapacity: toAdvance.capacity <= keptCapacity) }
    isSending = false
  }

  /// Reduces a queued action, unless its task was cancelled meanwhile.
  // NB: `queuedActions` is used only in functions of its own: code not specialized for `Action`
  // looks its type up on entering a function that uses it, and most sends queue nothing.
  private func reduceQueued(at index: Int) {
    let lineage = queuedLineages[index]
    if lineage?.isCancelled != true { reduce(queuedActions[index], in: lineage) }
    lineage?.leave()
  }

  private func clearQueue() {
    let keepCapacity = queuedLineages.capacity <= keptCapacity
    queuedActions.removeAll(keepingCapacity: keepCapacity)
    queuedLineages.removeAll(keepingCapacity: keepCapacity)
  }

  /// Reduces what a running effect sent, in its lineage; drops what a cancelled one sent.
  private func deliver(_ action: Action, from effect: RunningEffect) {
    switch effect.phase {
    case .running:
      _ = send(action, in: effect.lineage)
    case .cancelled, .ended(wasCancelled: true):
      break
    case .ended(wasCancelled: false):
      miniReduxReport(
        "MiniRedux: an effect sent \(action) after its operation had returned; it was dropped. "
          + "Call send only while the operation runs.")
    }
  }
}

// MARK: - The effect interpreter

extension Runtime {
  /// Starts `effect`, which `origin` returned, in `lineage`, inside a concatenation's `step`.
  private func start(
    _ effect: Effect<Action>, in lineage: Lineage?, step: Concatenation<Action>?, origin: Action
  ) {
    // NB: A `.run` or `.send`, maybe under ids, the usual effect, skips the stack's type lookups.
    var (effect, ids): (Effect, EffectIDs) = (effect, step?.ids ?? (nil, []))
    while case .cancellable(let id, let cancelInFlight, let parts) = effect.operation {
      if cancelInFlight { registry.cancel(id, around: step) }
      add(id, to: &ids)
      effect = parts.first
    }
    guard effect.parts != nil else {
      return startLeaf(effect, in: lineage, step: step, ids: ids, origin: origin)
    }
    // NB: The ids of an effect on the stack are the first `count` of `path`, one list for all:
    // a copy per effect would cost n·n for ids nested in merges.
    var path = (ids.first.map { [$0] } ?? []) + ids.rest
    var pending = [(effect, step, count: path.count)]
    while let (effect, step, count) = pending.popLast() {
      path.removeSubrange(count...)
      switch effect.operation {
      case .cancellable(let id, let cancelInFlight, let parts):
        if cancelInFlight { registry.cancel(id, around: step) }
        path.append(id)
        pending.append((parts.first, step, count + 1))
      case .merge(let parts):
        pending += parts.effects.reversed().map { ($0, step, count) }
      case .concatenate(let parts):
        guard let lineage = admit(lineage, in: step) else { break }
        let ids = (path.first, Array(path.dropFirst()))
        let concatenation = Concatenation(lineage, step, ids, parts, origin: origin)
        registry.register(concatenation, task: nil)
        toAdvance.append(concatenation)
        if let first = concatenation.nextStep() { pending.append((first, concatenation, count)) }
      default:
        startLeaf(
          effect, in: lineage, step: step, ids: (path.first, Array(path.dropFirst())),
          origin: origin)
      }
    }
  }

  private func startLeaf(
    _ effect: Effect<Action>, in lineage: Lineage?, step: Concatenation<Action>?,
    ids: @autoclosure () -> EffectIDs, origin: Action
  ) {
    switch effect.operation {
    case .send(let action):
      // NB: A step of a concatenation its own step cancelled starts nothing more, a send included.
      guard step?.phase ?? .running == .running else { return }
      enqueue(action, lineage)
    case .cancel(let id):
      registry.cancel(id, around: nil)
    case .report(let message):
      registry.report(message)
    case .dismiss:
      registry.report(
        "MiniRedux: the reducer of a Store<\(State.self), \(Action.self)> returned .dismiss for "
          + "\(Dump.line(origin)), which only a child embedded with ifLet or forEach may return; it "
          + "did nothing. To remove a child, return it from the child's reducer.")
    case .run(let priority, let body, let handler):
      guard let lineage = admit(lineage, in: step) else { return }
      let running = RunningEffect(lineage: lineage, parent: step, ids: ids())
      let send = Send(running: running, deliver: deliver)
      // NB: Written out in each call: a shared local function costs 2% of S3 and 8% of S5a.
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        // NB: Starts inside `send`, so that the operation leaves the main actor at once.
        let executor = registry.executor as? any TaskExecutor
        registry.register(
          running,
          task: Task.immediate(priority: priority, executorPreference: executor) {
            await Effect.perform(body, handler, send, startedBy: origin)
            running.operationReturned()
          })
      } else {
        registry.register(
          running,
          task: Task(priority: priority) {
            await Effect.perform(body, handler, send, startedBy: origin)
            running.operationReturned()
          })
      }
    default:
      break
    }
  }

  /// The lineage a new effect in `step` counts in (the send in progress's if `lineage` is `nil`),
  /// unless that lineage or the step's concatenation was cancelled: then it does not start.
  private func admit(_ lineage: Lineage?, in step: RunningEffect?) -> Lineage? {
    if lineage == nil, current == nil { current = Lineage(registry) }
    guard let lineage = lineage ?? current, !lineage.isCancelled,
      step?.phase ?? .running == .running
    else { return nil }
    return lineage
  }

  /// Moves a concatenation on if its step has ended: starts its next step, or ends it.
  private func advance(_ concatenation: RunningEffect) {
    guard concatenation.stepCount == 0, !concatenation.hasEnded else { return }
    let concatenation = concatenation as! Concatenation<Action>
    if concatenation.phase == .running, let step = concatenation.nextStep() {
      toAdvance.append(concatenation)
      start(step, in: concatenation.lineage, step: concatenation, origin: concatenation.origin)
    } else {
      registry.end(concatenation)
    }
  }

  /// Moves on a concatenation whose step has ended: at once, unless a send is in progress.
  private func stepEnded(_ concatenation: RunningEffect) {
    toAdvance.append(concatenation)
    guard !isSending else { return }
    isSending = true
    // NB: A send made meanwhile, by an observer, belongs to the concatenation's lineage.
    current = concatenation.lineage.isCancelled ? nil : concatenation.lineage
    drain()
    current = nil
  }
}

// MARK: - Effects in flight

/// One `send` and everything its effects sent back: what a ``StoreTask`` waits for and cancels.
@MainActor final class Lineage {
  /// The effects in flight and the actions queued.
  private(set) var count = 0
  /// Whether ``cancel()`` was called: nothing new starts, nothing queued is reduced.
  private(set) var isCancelled = false
  /// Its effects that are running, neither cancelled nor ended, and whether one ended running.
  var (running, finishedOne) = (0, false)
  private(set) weak var registry: Registry?
  /// The tasks waiting in ``wait()``, each resumed once: by `leave`, or by its cancellation.
  // NB: The first inline: an array for the usual one costs S3 2%.
  private var waiters: (first: Waiter?, rest: [Waiter]) = (nil, [])
  private typealias Waiter = (id: Int, continuation: UnsafeContinuation<Void, Never>)
  private var nextWaiterID = 0
  init(_ registry: Registry) { self.registry = registry }

  /// Whether ``cancel()`` was called, or every effect was cancelled before one finished.
  var isCancelledOrEveryEffectCancelled: Bool { isCancelled || !finishedOne && running == 0 }

  func enter() { count += 1 }

  func leave() {
    count -= 1
    guard count == 0 else { return }
    // NB: A resumed waiter runs later, so that none can change the list meanwhile.
    waiters.first?.continuation.resume()
    for waiter in waiters.rest { waiter.continuation.resume() }
    waiters = (nil, [])
  }

  /// Cancels its effects in flight, found in the registry, which lists those that are running.
  func cancel() {
    isCancelled = true
    registry?.cancel(self)
  }

  /// Returns once nothing is left; if the waiting task is cancelled, at once, cancelling the rest.
  func wait() async {
    guard count > 0 else { return }
    let id = nextWaiterID
    nextWaiterID += 1
    await withTaskCancellationHandler {
      // NB: Unsafe, as a checked one costs 4% of a round trip (S3); sound, as each is in
      // `waiters` once, and taken out as it is resumed. An array, not a dictionary: 2% more.
      await withUnsafeContinuation { continuation in
        if waiters.first == nil {
          waiters.first = (id, continuation)
        } else {
          waiters.rest.append((id, continuation))
        }
      }
    } onCancel: {
      Task { @MainActor in
        self.cancel()
        if self.waiters.first?.id == id {
          self.waiters.first.take()?.continuation.resume()
        } else if let index = self.waiters.rest.firstIndex(where: { $0.id == id }) {
          self.waiters.rest.remove(at: index).continuation.resume()
        }
      }
    }
  }
}

/// An effect in flight: a `.run` and its task, or a ``Concatenation`` and its current step.
@MainActor class RunningEffect {
  /// Where it is in its life; it moves on only through ``cancel()`` and ``end()``.
  enum Phase: Equatable {
    /// Registered under its ids; what it sends is reduced.
    case running
    /// Unregistered and its task cancelled; what it sends is dropped until it ends.
    case cancelled
    /// Out of its lineage and its concatenation's step; a send after a normal end is misuse.
    case ended(wasCancelled: Bool)
  }

  let lineage: Lineage
  /// The concatenation whose current step this effect is part of.
  // NB: Changed only by `deinit`, while no one else holds either effect.
  nonisolated(unsafe) private(set) var parent: RunningEffect?
  /// The ids of the `cancellable`s around it.
  let ids: EffectIDs
  private(set) var phase = Phase.running
  /// For a concatenation, the effects of its current step in flight.
  var stepCount = 0
  /// Its index in its registry's list of effects in flight; -1 when not in it.
  var slot = -1

  init(lineage: Lineage, parent: RunningEffect?, ids: EffectIDs) {
    (self.lineage, self.parent, self.ids) = (lineage, parent, ids)
    lineage.running += 1
    lineage.enter()
    parent?.stepCount += 1
  }

  // NB: Releases a long chain of concatenations in a loop, not a stack frame a link.
  deinit {
    var next = parent.take()
    while var effect = next.take(), isKnownUniquelyReferenced(&effect) {
      next = effect.parent.take()
    }
  }

  var hasEnded: Bool { if case .ended = phase { true } else { false } }

  /// Calls `body` with each of its ids.
  func forEachID(_ body: (EffectID) -> Void) {
    if let id = ids.first { body(id) }
    ids.rest.forEach(body)
  }

  /// The event of a cancellation: returns whether the effect was running, and so whether the
  /// caller must unregister it and cancel its task.
  func cancel() -> Bool {
    guard phase == .running else { return false }
    phase = .cancelled
    lineage.running -= 1
    return true
  }

  /// The event of its end: leaves its lineage and its step; returns whether it was running, and
  /// so whether the caller must unregister it.
  func end() -> Bool {
    guard !hasEnded else { preconditionFailure("MiniRedux: an effect ended twice") }
    let wasRunning = phase == .running
    phase = .ended(wasCancelled: !wasRunning)
    if wasRunning { (lineage.running, lineage.finishedOne) = (lineage.running - 1, true) }
    lineage.leave()
    parent?.stepCount -= 1
    return wasRunning
  }

  /// Ends a returned `.run`; with its store gone, also the concatenations whose step it empties.
  func operationReturned() {
    if let registry = lineage.registry { return registry.end(self) }
    var effect: RunningEffect? = self
    while let current = effect {
      _ = current.end()
      effect = current.parent.flatMap { $0.stepCount == 0 ? $0 : nil }
    }
  }
}

/// A `.concatenate` in flight: it owns its steps still to start, and counts the effects of its
/// current step (`stepCount`); it moves on when that count drops to zero.
@MainActor final class Concatenation<Action: Sendable>: RunningEffect {
  /// The steps still to start, last first.
  private var steps: [Effect<Action>]
  /// The action whose reducer returned it, named in reports of its effects' errors.
  let origin: Action

  init(
    _ lineage: Lineage, _ step: RunningEffect?, _ ids: EffectIDs, _ parts: Effect<Action>.Parts,
    origin: Action
  ) {
    (steps, self.origin) = (parts.effects.reversed(), origin)
    super.init(lineage: lineage, parent: step, ids: ids)
  }

  /// Pops the next step; a nested concatenation is spread, so that nesting costs no depth.
  func nextStep() -> Effect<Action>? {
    while let step = steps.popLast() {
      guard case .concatenate(let parts) = step.operation else { return step }
      steps += parts.effects.reversed()
    }
    return nil
  }
}

/// The effects of one store in flight, by id, and its embedded children with effects in flight;
/// released with its store, it cancels them.
@usableFromInline @MainActor final class Registry {
  /// Each effect in flight, at its `slot`, with its task.
  // NB: `deinit` may read only `Sendable` values, so the tasks are here.
  private var running: [(effect: RunningEffect, task: Task<Void, Never>?)] = []
  /// The effects under each id: the first inline, as most ids cover one effect at a time.
  private var byID: [EffectID: (first: RunningEffect, others: [ObjectIdentifier: RunningEffect])] =
    [:]
  /// The embedded children with effects in flight: their ids, by embedding and key.
  private(set) var children: [AnyHashable: [AnyHashable: EffectID]] = [:] {
    didSet { hasChildren = !children.isEmpty }
  }
  // NB: A flag, as each reduction reads it: the dictionary's accesses are checked at run time
  // (its hashing calls unknown code), which would cost 7% of a plain send.
  private(set) var hasChildren = false
  /// Moves on a concatenation whose step has ended; set by the store's runtime.
  var onStepEnd: @MainActor (RunningEffect) -> Void = { _ in }
  /// Where a test store runs effects' operations: a `TestExecutor`.
  var executor: AnyObject?
  /// Where misuse found while reducing is reported; a `TestStore` records it.
  var report: @MainActor (String) -> Void = { miniReduxReport($0) }
  var snapshot: (effects: Int, ids: Int) { (running.count, byID.count + children.count) }

  deinit { for entry in running { entry.task?.cancel() } }

  func register(_ effect: RunningEffect, task: Task<Void, Never>?) {
    effect.slot = running.count
    running.append((effect, task))
    effect.forEachID { id in
      // NB: Only `first` read, not a copy of `others`, which the write would then copy whole.
      guard let first = byID[id]?.first else {
        byID[id] = (effect, [:])
        if let place = id.place { children[place.embedding, default: [:]][place.key] = id }
        return
      }
      // NB: An id twice around one effect registers it once.
      if first !== effect { byID[id]!.others[.init(effect)] = effect }
    }
  }

  func unregister(_ effect: RunningEffect, cancellingTask: Bool) {
    let slot = effect.slot
    guard slot >= 0 else { return }
    if cancellingTask { running[slot].task?.cancel() }
    let last = running.removeLast()
    if slot < running.count { (running[slot], last.effect.slot) = (last, slot) }
    effect.slot = -1
    effect.forEachID { id in
      guard var members = byID.removeValue(forKey: id) else { return }
      if members.first !== effect {
        members.others[.init(effect)] = nil
      } else if let next = members.others.popFirst()?.value {
        members.first = next
      }
      if members.first !== effect {
        byID[id] = members
      } else if let place = id.place {  // The id's last effect: the id is gone.
        children[place.embedding]?[place.key] = nil
        if children[place.embedding]?.isEmpty == true { children[place.embedding] = nil }
      }
    }
    if running.isEmpty, running.capacity > keptCapacity {
      (running, byID, children) = ([], [:], [:])
    }
  }

  /// Stops listing the children of `embedding`, which a store cannot find in its state.
  func forget(_ embedding: AnyHashable) { children[embedding] = nil }

  /// Takes an effect that ended out of its lineage, the registry and its concatenation's step.
  func end(_ effect: RunningEffect) {
    if effect.end() { unregister(effect, cancellingTask: false) }
    if let parent = effect.parent, parent.stepCount == 0 { onStepEnd(parent) }
  }

  /// Cancels every effect in flight in `lineage`.
  // NB: A search of all, not a list per lineage, which each effect would join and leave.
  func cancel(_ lineage: Lineage) {
    for (effect, _) in running where effect.lineage === lineage && effect.cancel() {
      unregister(effect, cancellingTask: true)
    }
  }

  /// Cancels every effect running under `id` but the concatenations that `step` is part of.
  func cancel(_ id: EffectID, around step: RunningEffect?) {
    // NB: Over a copy, as cancelling one unregisters it.
    guard let members = byID[id] else { return }
    func cancelUnlessEnclosing(_ effect: RunningEffect) {
      var outer = step
      while let enclosing = outer, enclosing !== effect { outer = enclosing.parent }
      if outer == nil, effect.cancel() { unregister(effect, cancellingTask: true) }
    }
    cancelUnlessEnclosing(members.first)
    for effect in members.others.values { cancelUnlessEnclosing(effect) }
  }
}

// How `scope`, `ifLet` and `forEach` embed a child: its effects run under an id made of its place
// (its embedding and its key there), and the ids inside are renamed into it, so that they are its
// own. A place says how to tell, from the state of the store that embeds it, whether the child is
// there; renaming on the way out composes that test for the places inside, so that the root store
// can tell from its own state, after each reduction, which children with effects in flight are
// gone, whoever removed them.
extension Registry {
  /// Returns `effect`, a child's, embedded at `path` under `key`: its actions sent through
  /// `embed`, its places renamed into this one, and, if it `owns` its effects, all of it under
  /// its place's id.
  /// - Parameters:
  ///   - child: The child's state in a state of the embedding store, if it is there.
  ///   - keys: Which keys of this embedding a state of the embedding store holds.
  @usableFromInline static func embed<State, ChildState, Action, ChildAction>(
    _ effect: Effect<ChildAction>, _ embed: @escaping @Sendable (ChildAction) -> Action,
    at path: AnyKeyPath, key: AnyHashable, owns: Bool = true,
    child: @escaping (State) -> ChildState?,
    keys: @escaping (State) -> (AnyHashable) -> Bool
  ) -> Effect<Action> {
    let id = EffectID((embedding: path, key: key, keys: keys))
    let embedded = effect.map(embed) { inner in
      // NB: A child of `scope` has its parent's effects; the places inside are renamed all the
      // same, as two scoped children of one type have children of their own.
      guard let place = inner.place else { return owns ? EffectID([id, inner]) : inner }
      // NB: Not one of the child's state's places: the store reports it once it runs.
      guard let keys = place.keys as? (ChildState) -> (AnyHashable) -> Bool else { return inner }
      let outerKeys: (State) -> (AnyHashable) -> Bool = { child($0).map(keys) ?? { _ in false } }
      return EffectID(
        (embedding: [AnyHashable(id), place.embedding], key: place.key, keys: outerKeys))
    }
    return owns ? embedded.cancellable(id) : embedded
  }

  /// Extracts from an action the payload of the case `embed` makes, telling cases apart by name,
  /// as `print` does; the name is learned from the first action whose payload is a `Payload`, and
  /// the names of cases with no payload as they come, so that each is reflected on once.
  @usableFromInline nonisolated static func extract<Action, Payload>(
    _ embed: @escaping (Payload) -> Action
  ) -> @MainActor (Action) -> Payload? {
    // NB: Sound: called only on the main actor, as the store reduces actions.
    nonisolated(unsafe) let embed = embed
    nonisolated(unsafe) var name: UnsafePointer<CChar>?
    nonisolated(unsafe) var others: [UnsafePointer<CChar>] = []
    return { action in
      guard let actionName = caseName(action) else {
        preconditionFailure(
          "MiniRedux: cannot read the case of \(Action.self) \(action): an embedding needs an enum "
            + "with reflection metadata. Pass `extract:` a closure that extracts the child's action."
        )
      }
      guard actionName == name || name == nil && !others.contains(actionName) else { return nil }
      let payload = Dump.payload(of: action, as: Payload.self)
      name = name ?? payload.flatMap { caseName(embed($0)) }
      // NB: Only a case with no payload is surely not the child's before its name is learned.
      if name == nil, Mirror(reflecting: action).children.isEmpty { others.append(actionName) }
      return actionName == name ? payload : nil
    }
  }

  /// Who a present child is: the same while present, and, if `Identifiable`, while its `id` is; if
  /// an enum, while its case is.
  @usableFromInline static func key<Child>(of child: Child?) -> AnyHashable? {
    child.map { child in
      if let child = child as? any Identifiable { return id(of: child) }
      // NB: An enum of destinations is a child per case: another case is another child.
      return caseName(child).map { AnyHashable(String(cString: $0)) } ?? AnyHashable(true)
    }
  }

  private static func id(of child: some Identifiable) -> AnyHashable { child.id }

  /// An effect that reports more than one element with `id` in the collection at `path`.
  @usableFromInline static func duplicate<Action>(_ id: some Hashable, in path: AnyKeyPath)
    -> Effect<Action>
  {
    Effect(
      operation: .report(
        "MiniRedux: \(path) holds more than one element with id \(id); the action for it went "
          + "to the first. Give each element an id of its own, such as a UUID or a counter."))
  }

  /// Returns what a child that dismisses itself leaves, with `action`: nothing, or a report of
  /// the effects it returned with `.dismiss`, which end with it, unstarted, or of a collection
  /// that could not remove it.
  @usableFromInline static func dismissed<ChildAction, Action>(
    _ effect: Effect<ChildAction>, by action: Action, removed: Bool = true
  ) -> Effect<Action> {
    guard removed else {
      return Effect(
        operation: .report(
          "MiniRedux: .dismiss for \(Dump.line(action)) did nothing, as its collection cannot "
            + "remove elements; embed an Array, or another RangeReplaceableCollection."))
    }
    // NB: A child of an enum case's `scope` returns it under the case's id.
    var effect = effect
    while case .cancellable(_, _, let parts) = effect.operation { effect = parts.first }
    guard case .dismiss = effect.operation else {
      return Effect(
        operation: .report(
          "MiniRedux: the child returned .dismiss with other effects for \(Dump.line(action)); "
            + "they ended with it, unstarted. Return .dismiss alone, after sending what must come "
            + "first."))
    }
    return .none
  }

  /// Removes the element at `index` of `rows`, if they can remove one: returns whether it did.
  @usableFromInline nonisolated static func remove<Rows: Collection>(
    _ index: Rows.Index, from rows: inout Rows
  )
    -> Bool
  {
    func removing<Removable: RangeReplaceableCollection>(from rows: Removable) -> Any {
      var rows = rows
      rows.remove(at: index as! Removable.Index)
      return rows
    }
    guard let removable = rows as? any RangeReplaceableCollection else { return false }
    rows = removing(from: removable) as! Rows
    return true
  }

  /// An effect that reports `action` dropped, as `reason`: the child it is for is gone.
  @usableFromInline static func drop<Action>(_ action: Action, _ reason: String) -> Effect<Action> {
    Effect(
      operation: .report(
        "MiniRedux: dropped \(Dump.line(action)), as \(reason): the child it is for is gone. A "
          + "view that sends after its child was dismissed or removed is the usual cause."))
  }
}

/// The name of `value`'s case, if it is an enum whose type has reflection metadata: what `print`
/// shows, at a tenth of a `Mirror`'s cost. The same case always gives the same address.
// NB: The Swift runtime's function that `print` calls, exported from every standard library.
@_silgen_name("swift_EnumCaseName")
nonisolated func caseName<Value>(_ value: Value) -> UnsafePointer<CChar>?

/// Where MiniRedux reports misuse and uncaught errors: standard error, unless a test replaces it.
/// A report that `fails` also makes the process exit with status 1 at its end: `swift test` fails.
nonisolated let miniReduxReporter = TaskLocal<@Sendable (String, _ fails: Bool) -> Void>(
  wrappedValue: { message, fails in
    var line = message + "\n"
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
      if fails { _ = failingAtExit }
    #else
      print(line, terminator: "")
    #endif
  })

nonisolated func miniReduxReport(_ message: String, fails: Bool = false) {
  miniReduxReporter.get()(message, fails)
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
  nonisolated private let failingAtExit: Void = {
    atexit {
      fflush(nil)
      _exit(1)
    }
  }()

  /// Records `message` as a failure of the running test, at `location`, with Swift Testing or XCTest,
  /// found at run time, so that an app that copies the library links neither; returns `false` if
  /// no test runs here.
  // NB: Each function is found by its mangled name, which encodes its signature: one that changed
  // is not found, and this returns `false`. Swift Testing is built with library evolution, so its
  // values cross calls by address, as generic ones do: its types, opened as generic parameters,
  // size and pass them, and no copy of their layouts is needed.
  nonisolated func recordTestIssue(_ message: String, at location: StepLocation) -> Bool {
    // NB: Cast to protocols they conform to: Swift 5 mode opens no `Any.Type`.
    if let test = _typeByName("7Testing4TestV") as? any Hashable.Type,
      let issue = _typeByName("7Testing5IssueV") as? any CustomStringConvertible.Type,
      let sourceLocation = _typeByName("7Testing14SourceLocationV") as? any Hashable.Type,
      let comment = _typeByName("7Testing7CommentV") as? any RawRepresentable.Type,
      recordIssue(test, issue, sourceLocation, comment, message, location)
    {
      return true
    }
    #if canImport(Darwin)
      let runsXCTest = [
        "XCTestBundlePath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier",
      ]
      .contains { getenv($0) != nil }
    #else
      // NB: XCTest here does not tell whether a test runs; `swift test` runs Swift Testing's tests
      // in a process of their own, whose arguments say so.
      let runsXCTest = !CommandLine.arguments.contains("swift-testing")
    #endif
    guard runsXCTest, let fail = symbol("$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF")
    else { return false }
    // NB: Sound: the signature of `XCTFail(_:file:line:)` is in its name, in stdlib types only.
    unsafeBitCast(fail, to: (@convention(thin) (String, StaticString, UInt) -> Void).self)(
      message, location.filePath, location.line)
    return true
  }

  /// Calls `Issue.record(_:sourceLocation:)` in the running Swift Testing test, if there is one,
  /// with `Test`, `Issue`, `SourceLocation` and `Comment` opened as generic parameters.
  nonisolated private func recordIssue<
    Test: Hashable, Issue: CustomStringConvertible, SourceLocation: Hashable,
    Comment: RawRepresentable
  >(
    _: Test.Type, _: Issue.Type, _: SourceLocation.Type, _: Comment.Type, _ message: String,
    _ location: StepLocation
  ) -> Bool {
    // NB: The thunk exists only in a Testing built with library evolution, as toolchains ship it:
    // one built from source would pass these values in registers.
    guard symbol("$s7Testing10SuiteTraitP11isRecursiveSbvgTj") != nil,
      let current = symbol("$s7Testing4TestV7currentACSgvgZ"),
      let makeLocation = symbol(
        "$s7Testing14SourceLocationV6fileID0D4Path4line6columnACSS_SSS2itcfC"),
      let record = symbol(
        "$s7Testing5IssueV6record_14sourceLocationAcA7CommentVSg_AA06SourceE0VtFZ"),
      let rawValue = message as? Comment.RawValue, let comment = Comment(rawValue: rawValue),
      // NB: Sound, as the signatures are in the names and the values cross by address (above).
      unsafeBitCast(current, to: (@convention(thin) () -> Test?).self)() != nil
    else { return false }
    // NB: `SourceLocation.init` stops the program on a `fileID` with no slash, or a line below 1.
    let fileID = "\(location.fileID)".contains("/") ? "\(location.fileID)" : "_/\(location.fileID)"
    let sourceLocation = unsafeBitCast(
      makeLocation,
      to: (@convention(thin) (__owned String, __owned String, Int, Int) -> SourceLocation).self
    )(fileID, "\(location.filePath)", max(Int(location.line), 1), max(Int(location.column), 1))
    _ = unsafeBitCast(record, to: (@convention(thin) (Comment?, SourceLocation) -> Issue).self)(
      comment, sourceLocation)
    return true
  }

  nonisolated private func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    dlsym(dlopen(nil, RTLD_NOW), name)
  }
#else
  nonisolated func recordTestIssue(_ message: String, at location: StepLocation) -> Bool { false }
#endif

#if canImport(Combine)
  extension Effect {
    /// An effect sending each value `createPublisher()` emits, until it completes or is cancelled.
    /// ```swift
    /// case .listen:
    ///   return .publisher { [1, 2, 3].publisher.map(Action.heard) }
    /// ```
    public static func publisher<P: Publisher>(
      _ createPublisher: @escaping @Sendable () -> P
    ) -> Self where P.Output == Action, P.Failure == Never {
      .run { send in
        let actions = AsyncStream<Action> { continuation in
          // NB: The subscription is touched only here and in onTermination, which Combine and
          // AsyncStream order; AnyCancellable is not Sendable.
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
