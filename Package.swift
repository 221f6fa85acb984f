// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "MiniRedux",
  platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "MiniRedux", targets: ["MiniRedux"])
  ],
  targets: [
    .target(name: "MiniRedux"),
    .testTarget(name: "MiniReduxTests", dependencies: ["MiniRedux"]),
  ],
  swiftLanguageModes: [.v6]
)
