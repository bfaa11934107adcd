;;; contactsbook.el --- Addresses from ContactsBook in mail buffers  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (jsonrpc "1.0.14"))
;; Keywords: mail, convenience
;; URL: https://github.com/contactsbook/contactsbook

;;; Commentary:

;; ContactsBook (the `contactsbook' program) in Emacs:
;;
;; - eglot for `message-mode' and `mail-mode' through `contactsbook --lsp': completion of
;;   addresses in To, Cc, Bcc, From and Reply-To, hover, a code action adding an unknown
;;   address, hints on addresses not in the book.  This file adds the server to
;;   `eglot-server-programs'; start it with M-x eglot, or (add-hook 'message-mode-hook #'eglot-ensure).
;; - `contactsbook-completion-at-point', the same completion on header lines without eglot
;;   (through `contactsbook query'): (add-hook 'message-mode-hook #'contactsbook-mail-setup).
;; - M-x contactsbook: the book in a `tabulated-list-mode' buffer, kept up to date when any
;;   program changes the book: s search, RET open, e edit a field, g refresh, q quit.
;; - M-x contactsbook-insert: pick a contact and insert its address.
;;
;; When the program is missing or the book cannot be opened, each says so at once and does
;; nothing else; the book is written only when you add or edit.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'subr-x)
(require 'tabulated-list)

(defgroup contactsbook nil
  "Addresses from ContactsBook."
  :group 'mail
  :prefix "contactsbook-")

(defcustom contactsbook-program "contactsbook"
  "The contactsbook program."
  :type 'string)

(defcustom contactsbook-db nil
  "The book to use (passed as --db), or nil for contactsbook's default book."
  :type '(choice (const :tag "The default book" nil) file))

(defcustom contactsbook-limit 200
  "How many contacts M-x contactsbook and `contactsbook-insert' list."
  :type 'integer)

(defconst contactsbook--address-fields '("to" "cc" "bcc" "from" "reply-to")
  "The header fields whose addresses are completed.")

;;;; Running the program

(defun contactsbook--args (&rest args)
  "ARGS for the program, with --db when `contactsbook-db' is set."
  (append args (and contactsbook-db (list "--db" (expand-file-name contactsbook-db)))))

(defvar contactsbook--checked nil
  "(PROGRAM DB) of the last check that found nothing wrong.
A working set-up is checked once.")

(defun contactsbook--problem ()
  "Why contactsbook cannot run, or nil.
The book is only read (`contactsbook list' never makes one): a
missing one is reported, never made."
  (let ((key (list contactsbook-program contactsbook-db)))
    (if (equal contactsbook--checked key)
        nil
      (let ((problem
             (if (not (executable-find contactsbook-program))
                 (format "cannot find the program \"%s\" (install contactsbook, or set `contactsbook-program')"
                         contactsbook-program)
               (with-temp-buffer
                 (let ((status (apply #'call-process contactsbook-program nil '(t t) nil
                                      (contactsbook--args "list" "--limit" "1"))))
                   ;; 1 is an empty book; 2 a book that cannot be opened.
                   (when (or (not (integerp status)) (>= status 2))
                     (string-trim (replace-regexp-in-string "^error: " "" (buffer-string)))))))))
        ;; A working set-up is remembered; a problem is checked again next time (it may be fixed).
        (setq contactsbook--checked (and (not problem) key))
        problem))))

(defun contactsbook--check ()
  "Signal a `user-error' saying why contactsbook cannot run, if it cannot."
  (when-let ((problem (contactsbook--problem)))
    (user-error "contactsbook: %s" problem)))

;;;; eglot

;;;###autoload
(defun contactsbook-eglot-contact (&optional _interactive)
  "The command eglot starts for mail buffers: `contactsbook --lsp'.
Signals a clear error instead when the program or the book is missing."
  (contactsbook--check)
  (cons (executable-find contactsbook-program) (contactsbook--args "--lsp")))

(defvar eglot-server-programs)

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '((message-mode mail-mode) . contactsbook-eglot-contact))
  (add-hook 'eglot-managed-mode-hook #'contactsbook--eglot-managed))

;;;###autoload
(defun contactsbook--eglot-managed ()
  "In a mail buffer eglot manages, keep every completion the server gives.
The book chooses the matches (accents and case aside, inside
words); Emacs's own styles would drop `José Ñúñez' for `nun'."
  (when (derived-mode-p 'message-mode 'mail-mode)
    (setq-local completion-category-overrides
                (cons '(eglot (styles contactsbook)) completion-category-overrides))))

;;;; Completion at point, without eglot

(defun contactsbook--style-try (string table pred point &optional _metadata)
  "Complete STRING at POINT to the one candidate of TABLE matching PRED, if one."
  (let ((all (all-completions "" table pred)))
    (cond ((null all) nil)
          ((null (cdr all)) (cons (car all) (length (car all))))
          (t (cons string point)))))

(defun contactsbook--style-all (_string table pred _point &optional _metadata)
  "Every candidate of TABLE matching PRED: the book found them for the text typed."
  (all-completions "" table pred))

(add-to-list 'completion-styles-alist
             '(contactsbook contactsbook--style-try contactsbook--style-all
                            "The candidates as ContactsBook found them for the text typed."))
(add-to-list 'completion-category-defaults '(contactsbook-address (styles contactsbook)))

(defun contactsbook--header-end ()
  "Where the headers of the mail buffer end."
  (save-excursion
    (goto-char (point-min))
    (let ((separator (concat "^\\(" (regexp-quote (or (bound-and-true-p mail-header-separator) "")) "\\)?$")))
      (if (re-search-forward separator nil t) (match-beginning 0) (point-max)))))

(defun contactsbook--address-field-p ()
  "Whether point is in an address field of the headers.
On the field's own line or one of its continuation lines."
  (and (< (point) (contactsbook--header-end))
       (save-excursion
         (beginning-of-line)
         (while (and (looking-at-p "[ \t]") (not (bobp))) (forward-line -1))
         (and (looking-at "\\([[:alnum:]-]+\\):")
              (member (downcase (match-string 1)) contactsbook--address-fields)))))

(defun contactsbook--address-start ()
  "Where the address being typed starts: after the last comma or the field's colon."
  (save-excursion
    (let ((limit (line-beginning-position)))
      (if (re-search-backward "[,:]" limit t) (forward-char 1) (goto-char limit))
      (skip-chars-forward " \t")
      (point))))

(defun contactsbook--mailbox (name address)
  "NAME <ADDRESS>, the name quoted where RFC 5322 needs it."
  (cond ((string-empty-p name) address)
        ((string-match-p "[][()<>:;@\\\\,.\"]" name)
         (format "\"%s\" <%s>" (replace-regexp-in-string "[\"\\\\]" "\\\\\\&" name) address))
        (t (format "%s <%s>" name address))))

(defun contactsbook--query (text)
  "The addresses `contactsbook query TEXT' finds, as \"Name <addr>\" with their info."
  (let ((lines (apply #'process-lines-ignore-status contactsbook-program
                      (append (list "query") (contactsbook--args) (list text)))))
    (cl-loop for line in (cdr lines)
             for (address name info) = (split-string line "\t")
             when address
             collect (propertize (contactsbook--mailbox (or name "") address) 'contactsbook-info info))))

;;;###autoload
(defun contactsbook-completion-at-point ()
  "Complete the address being typed in To, Cc, Bcc, From or Reply-To.
For `completion-at-point-functions'; works without eglot, through
`contactsbook query'."
  (when (contactsbook--address-field-p)
    (let* ((start (contactsbook--address-start))
           (end (point))
           (text (string-trim (buffer-substring-no-properties start end))))
      (when (and (not (string-empty-p text)) (not (contactsbook--problem)))
        (let ((candidates (contactsbook--query text)))
          (list start end
                ;; Every candidate matches what was typed (the book chose them): the
                ;; text is not compared again, so `nun' keeps `José Ñúñez <…>'.
                (lambda (_string pred action)
                  (if (eq action 'metadata)
                      '(metadata (category . contactsbook-address) (display-sort-function . identity))
                    (complete-with-action action candidates "" pred)))
                :exclusive 'no
                :annotation-function
                (lambda (candidate)
                  (when-let ((info (get-text-property 0 'contactsbook-info candidate)))
                    (unless (string-empty-p info) (concat "  " info))))))))))

;;;###autoload
(defun contactsbook-mail-setup ()
  "Complete addresses in this mail buffer's headers.
For `message-mode-hook' and `mail-mode-hook'."
  (add-hook 'completion-at-point-functions #'contactsbook-completion-at-point nil t))

;;;; The book over JSON-RPC (contactsbook --rpc)

(defvar contactsbook--connection nil "The `contactsbook --rpc' connection.")

(defun contactsbook--connection ()
  "The live connection to `contactsbook --rpc', started when needed."
  (unless (and contactsbook--connection (jsonrpc-running-p contactsbook--connection))
    (contactsbook--check)
    (setq contactsbook--connection
          (make-instance
           'jsonrpc-process-connection
           :name "contactsbook"
           :process (make-process
                     :name "contactsbook" :noquery t :connection-type 'pipe :coding 'utf-8-emacs-unix
                     :command (cons contactsbook-program (contactsbook--args "--rpc"))
                     :stderr (get-buffer-create " *contactsbook stderr*"))
           :notification-dispatcher #'contactsbook--notification
           :request-dispatcher #'ignore))
    (jsonrpc-request contactsbook--connection :initialize '(:clientInfo (:name "contactsbook.el")) :timeout 10))
  contactsbook--connection)

(defun contactsbook--call (method &optional params)
  "Call METHOD (a keyword) with PARAMS and return the result.
A refusal is a `user-error' with the book's message."
  (condition-case err
      (jsonrpc-request (contactsbook--connection) method (or params (make-hash-table)) :timeout 10)
    (jsonrpc-error
     (user-error "contactsbook: %s" (alist-get 'jsonrpc-error-message (cdr err))))))

(defun contactsbook--notification (_connection method params)
  "Another program (or this one) changed the book: the list buffers are read again."
  (when (eq method 'session/dataChanged)
    (ignore params)
    (run-at-time 0 nil #'contactsbook--refresh-all)))

(defun contactsbook--rows (result)
  "The rows of the contact list RESULT displayed."
  (cl-loop for shown across (plist-get result :displayed)
           when (equal (plist-get shown :kind) "contactList")
           return (append (plist-get (plist-get shown :value) :rows) nil)))

(defun contactsbook--search-rows (text)
  "The contacts matching TEXT (every one for an empty TEXT)."
  (contactsbook--rows
   (if (string-empty-p text)
       (contactsbook--call :contacts/list (list :limit contactsbook-limit))
     (contactsbook--call :contacts/list (list :limit contactsbook-limit))
     (contactsbook--call :contacts/search (list :text text)))))

;;;; M-x contactsbook

(defvar-local contactsbook--search "" "The search this list buffer shows.")

(defvar contactsbook-list-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "s") #'contactsbook-search)
    (define-key map (kbd "RET") #'contactsbook-open)
    (define-key map (kbd "e") #'contactsbook-edit-field)
    (define-key map (kbd "g") #'contactsbook-refresh)
    map)
  "Keys of `contactsbook-list-mode'.")

(define-derived-mode contactsbook-list-mode tabulated-list-mode "Contacts"
  "The contacts of the book: s search, RET open, e edit a field, g refresh, q quit."
  (setq tabulated-list-format [("#" 5 contactsbook--id-less :right-align t) ("Name" 28 t)
                               ("Organization" 20 t) ("Email" 30 t) ("Phone" 18 t)])
  (setq tabulated-list-padding 1)
  (tabulated-list-init-header))

(defun contactsbook--id-less (a b)
  "Sorts entries A and B by their number."
  (< (car a) (car b)))

;;;###autoload
(defun contactsbook (&optional search)
  "Show the book (the contacts matching SEARCH, with a prefix argument, asked for)."
  (interactive (list (and current-prefix-arg (read-string "Search contacts: "))))
  (contactsbook--connection)
  (with-current-buffer (get-buffer-create "*contactsbook*")
    (contactsbook-list-mode)
    (setq contactsbook--search (or search ""))
    (contactsbook-refresh)
    (pop-to-buffer (current-buffer))))

(defun contactsbook-refresh ()
  "Read the list again."
  (interactive)
  (let ((rows (contactsbook--search-rows contactsbook--search)))
    (setq tabulated-list-entries
          (mapcar (lambda (row)
                    (list (plist-get row :id)
                          (vector (number-to-string (plist-get row :id)) (plist-get row :name)
                                  (plist-get row :organization) (plist-get row :email) (plist-get row :phone))))
                  rows))
    (setq header-line-format
          (format " %d contact%s%s" (length rows) (if (= (length rows) 1) "" "s")
                  (if (string-empty-p contactsbook--search) "" (format " matching \"%s\"" contactsbook--search))))
    (tabulated-list-print t)))

(defun contactsbook--refresh-all ()
  "Refresh every list buffer."
  (dolist (buffer (buffer-list))
    (with-current-buffer buffer
      (when (derived-mode-p 'contactsbook-list-mode)
        (ignore-errors (contactsbook-refresh))))))

(defun contactsbook-search (text)
  "Show the contacts matching TEXT (all of them for an empty one)."
  (interactive (list (read-string "Search contacts: " contactsbook--search)))
  (setq contactsbook--search text)
  (contactsbook-refresh))

(defun contactsbook--detail (id)
  "The contactDetail of contact ID."
  (let ((result (contactsbook--call :contacts/show (list :contact id))))
    (cl-loop for shown across (plist-get result :displayed)
             when (equal (plist-get shown :kind) "contactDetail") return (plist-get shown :value))))

(defun contactsbook-open (&optional id)
  "Show every field of the contact on this line (or number ID)."
  (interactive)
  (let* ((id (or id (tabulated-list-get-id) (user-error "No contact on this line")))
         (detail (contactsbook--detail id)))
    (with-current-buffer (get-buffer-create (format "*contactsbook: %s*" (plist-get detail :name)))
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (propertize (plist-get detail :name) 'face 'bold) "\n\n")
        (cl-loop for field across (plist-get detail :fields)
                 do (insert (format "%-20s %s\n" (plist-get field :label) (plist-get field :value)))))
      (special-mode)
      (pop-to-buffer (current-buffer)))))

(defconst contactsbook--fields
  '("given" "family" "display" "nickname" "organization" "title" "birthday" "notes" "email" "phone")
  "The fields `contactsbook-edit-field' sets; email and phone add one more.")

(defun contactsbook-edit-field (id field value)
  "Set FIELD of contact ID to VALUE, saved at once.
For email and phone, VALUE is added."
  (interactive
   (let* ((id (or (tabulated-list-get-id) (user-error "No contact on this line")))
          (field (completing-read "Field: " contactsbook--fields nil t)))
     (list id field (read-string (format "%s: " field)))))
  (contactsbook--call :contacts/edit (list :contact id))
  (condition-case err
      (progn
        (contactsbook--call (intern (concat ":form/" field)) (list :value value))
        (contactsbook--call :form/save))
    (user-error
     (ignore-errors (contactsbook--call :form/cancel))
     (signal (car err) (cdr err))))
  (when (derived-mode-p 'contactsbook-list-mode) (contactsbook-refresh))
  (message "contactsbook: %s set" field))

;;;###autoload
(defun contactsbook-insert (text)
  "Pick a contact matching TEXT and insert its address at point."
  (interactive (list (read-string "Contact: ")))
  (let* ((choices (cl-loop for row in (contactsbook--search-rows text)
                           append (cl-loop for email across (plist-get row :emails)
                                           collect (contactsbook--mailbox (plist-get row :name)
                                                                          (plist-get email :value)))))
         (choice (if choices (completing-read "Address: " choices nil t)
                   (user-error "contactsbook: no address matches \"%s\"" text))))
    (when (and (contactsbook--address-field-p)
               (looking-back "[^[:space:]:,][ \t]*" (line-beginning-position)))
      (insert ", "))
    (insert choice)))

(provide 'contactsbook)
;;; contactsbook.el ends here
