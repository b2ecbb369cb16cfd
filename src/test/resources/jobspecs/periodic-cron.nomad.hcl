job "cleanup" {
  datacenters = ["dc1"]
  type        = "batch"

  periodic {
    cron             = "@daily"
    prohibit_overlap = false
    enabled          = true
  }

  group "cleanup" {
    task "sweep" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "echo sweeping ${NOMAD_JOB_PARENT_ID}"]
      }
    }
  }
}
