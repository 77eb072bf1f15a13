"""Actor tests: scripted message sequences against one actor at a time, with probes in place of its peers."""
