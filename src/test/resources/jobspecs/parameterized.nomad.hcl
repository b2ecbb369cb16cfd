job "video-encode" {
  type = "batch"

  parameterized {
    payload       = "required"
    meta_required = ["input"]
    meta_optional = ["profile"]
  }

  group "encode" {
    task "ffmpeg" {
      driver = "raw_exec"

      config {
        command = "/bin/cat"
        args    = ["${NOMAD_TASK_DIR}/input.json"]
      }

      dispatch_payload {
        file = "input.json"
      }

      lifecycle {
        hook    = "prestart"
        sidecar = false
      }
    }
  }
}
