job "nightly" {
  type = "batch"

  periodic {
    crons            = ["0 2 * * *"]
    prohibit_overlap = true
    time_zone        = "America/New_York"
  }

  group "report" {
    task "run" {
      driver = "raw_exec"

      config {
        command = "/bin/date"
      }
    }
  }
}
