import ArgumentParser
import Logging
print("hi")
