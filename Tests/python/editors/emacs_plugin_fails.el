;;; emacs_plugin_fails.el --- contactsbook.el without its program or its book  -*- lexical-binding: t; -*-
;; Each entry point says why at once (a user-error), nothing starts and nothing is written.
;; Environment: TEST_CMD, TEST_DB (may be unset), TEST_PLUGIN_DIR. Prints one line per entry point.
(dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*")) (add-to-list 'load-path dir))
(add-to-list 'load-path (getenv "TEST_PLUGIN_DIR"))
(require 'message)
(require 'contactsbook)
(setq contactsbook-program (getenv "TEST_CMD") contactsbook-db (getenv "TEST_DB"))
(dolist (entry (list (cons "contactsbook" (lambda () (contactsbook)))
                     (cons "eglot" (lambda () (contactsbook-eglot-contact)))
                     (cons "insert" (lambda () (contactsbook-insert "x")))))
  (princ (format "%s: %s\n" (car entry)
                 (condition-case err (progn (funcall (cdr entry)) "no error")
                   (user-error (error-message-string err))))))
(with-temp-buffer
  (insert "To: jos\n\n")
  (message-mode)
  (goto-char (point-min)) (end-of-line)
  (princ (format "capf: %S\n" (contactsbook-completion-at-point))))
(kill-emacs 0)
