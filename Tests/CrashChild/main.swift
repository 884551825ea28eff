// The child process of the crash tests: runs the crash-test workload (PodDocReliability's
// CrashChild) with the arguments the parent (CrashTest) gives it, until it is killed.
import Foundation
import PodDocReliability

exit(await CrashChild.main(arguments: Array(CommandLine.arguments.dropFirst())))
