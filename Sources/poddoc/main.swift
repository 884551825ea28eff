import PodDocCommandLine

await PodDoc.runMain()
