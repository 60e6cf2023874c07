import Foundation
import ThemeLabCLI

// The BLAS kernel is chosen once per process, before any command runs; this may re-execute the program.
if let status = ThemeLabCLI.chooseKernel() { exit(status) }
ThemeLabCLI.cleanUpOnInterruption()
exit(ThemeLabCLI.main(CommandLine.arguments))
